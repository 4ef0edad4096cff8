/**
 * Browser test of the logs page's "Replay…" panel, reached from the group's events page: after
 * an outage a person picks the target, presses "Missed by this target", counts, starts, pauses
 * and resumes the replay and watches it finish while the fake Discord receives each failed
 * message once; every state passes axe-core, in dark mode and at 390 px. Skipped when chromium is not installed. With
 * `SCREENSHOTS_DIR` set, the page is captured at desktop, 390 px and dark.
 */
import assert from "node:assert/strict";
import { allowTargets } from "../../lib/store/config/allowed_targets.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import type { Target } from "../../lib/types.ts";
import { sendLog } from "../_admin_helpers.ts";
import {
  assertGoodEverywhere,
  capture,
  hasChromium,
  startConsoleWorld,
  untilHydrated,
  withChromium,
} from "../_browser.ts";
import { runWorker } from "../_delivery_helpers.ts";
import { storeFailedUnit } from "../_logs_fixtures.ts";

const TARGET: Target = { platform: "discord", channelId: "123456789012345678" };
const OTHER: Target = { platform: "discord", channelId: "223456789012345678" };

Deno.test({
  name:
    "console: the logs page replays what a target missed, with count, pause, resume and progress",
  ignore: !hasChromium,
  async fn() {
    await using world = await startConsoleWorld();
    const { app, discord } = world;
    const operator = { userId: "1", login: "olivia" };
    await putGroup(app.kv, { id: "web", name: "Web", members: [{ ...operator, role: "owner" }] });
    assert.ok((await allowTargets(app.kv, "web", [TARGET, OTHER], operator, "admin")).ok);
    assert.ok(
      (await replaceRoutes(app.kv, [{
        id: "prs",
        name: "Pull requests",
        enabled: true,
        groupId: "web",
        filters: [{ type: "event", value: "push" }],
        targets: [TARGET, OTHER],
      }])).ok,
    );
    const { entry } = await readGroupEntry(app.kv, "web");
    const at = Date.now() - 60 * 60_000;
    for (let i = 0; i < 5; i++) {
      await storeFailedUnit(
        app.kv,
        sendLog(at + i, {
          groupId: "web",
          groupInternalId: entry!.internalId,
          routeId: "prs",
          target: i < 3 ? TARGET : OTHER,
          status: "failed",
          attempts: 1,
        }),
      );
    }
    await withChromium(app.app.fetch, async (page, base) => {
      await page.goto(`${base}/admin/events/web`);
      await page.getByRole("link", { name: "replay them from the logs" }).click();
      await page.waitForURL(/\/admin\/logs\?group=web&replay=open/);
      const panel = page.getByTestId("replay-panel");
      assert.equal(await panel.getAttribute("open"), "", "the events page's link opens the panel");
      assert.equal(await panel.getByLabel("Group").inputValue(), "web");
      await panel.getByLabel("Target").selectOption("discord:123456789012345678");
      await untilHydrated(
        "the preset to fill the start time",
        () => panel.getByRole("button", { name: "Missed by this target" }).click(),
        async () => (await panel.getByLabel("From (UTC)").inputValue()) !== "",
      );
      await panel.getByLabel("Target").selectOption("discord:123456789012345678");
      await panel.getByRole("button", { name: "Count" }).click();
      const preview = panel.getByTestId("replay-preview");
      await preview.getByText("would be sent again").waitFor();
      assert.equal(
        await preview.innerText(),
        "The filter selects 3 messages of 3 events: 3 messages would be sent again.",
      );
      await assertGoodEverywhere(page);
      await capture(page, "replay-count");

      await panel.getByRole("button", { name: "Start replay" }).click();
      const status = panel.getByTestId("replay-status");
      await status.getByText("Running").waitFor();
      await panel.getByRole("button", { name: "Pause" }).click();
      await status.getByText("Paused").waitFor();
      await page.mouse.move(0, 0); // Resume took Pause's place: judge it without the hover
      await assertGoodEverywhere(page);
      await capture(page, "replay-paused");
      await panel.getByRole("button", { name: "Resume" }).click();
      await status.getByText("Running").waitFor();

      await using _worker = runWorker(app.kv, app.config);
      await status.getByText("Done").waitFor({ timeout: 30_000 });
      assert.match(await status.innerText(), /3 of 3 looked at, 3 messages sent to the lanes/);
      await assertGoodEverywhere(page);
      await capture(page, "replay-done");
      const deadline = Date.now() + 20_000;
      while (discord.received.length < 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(discord.received.length, 3);
      assert.ok(discord.received.every((message) => message.chat === TARGET.channelId));
    });
  },
});
