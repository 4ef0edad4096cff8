/**
 * The console's test event and rejected lists in a browser: from the group page a person sends
 * the bundled pull request through the group's real ingress and watches it arrive (accepted,
 * in Events, the route fired, the send ok, the fake Discord got it); a request signed with the
 * wrong secret then shows in the group's "Rejected requests" with what to change, and a request
 * to an unknown group in the instance's list. The route editor offers the same panel. axe finds
 * nothing on the three pages (light, dark, 390 px). Skipped when chromium is not installed.
 * With `SCREENSHOTS_DIR` set, each page is also captured at desktop, 390 px and dark.
 */
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { allowTargets } from "../../lib/store/config/allowed_targets.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import {
  assertGoodEverywhere,
  capture,
  hasChromium,
  startConsoleWorld,
  withChromium,
} from "../_browser.ts";
import { runWorker } from "../_delivery_helpers.ts";
import { waitFor } from "../_helpers.ts";

const CHANNEL = "123456789012345678";
/** The panels saved on their own besides each page's screenshots. */
const PANELS = ["test-event", "rejected"];

Deno.test({
  name: "console: a test event from the group page is delivered; rejected requests are listed",
  ignore: !hasChromium,
  async fn() {
    await using world = await startConsoleWorld();
    const { app, discord } = world;
    const operator = { userId: "1", login: "olivia" };
    for (const id of ["backend", "web"]) {
      await putGroup(app.kv, { id, name: id, members: [{ ...operator, role: "owner" }] });
    }
    await regenerateGroupSecret(app.kv, "backend");
    const target = { platform: "discord" as const, channelId: CHANNEL };
    assert.ok((await allowTargets(app.kv, "backend", [target], operator, "admin")).ok);
    assert.ok(
      (await replaceRoutes(app.kv, [{
        id: "prs",
        name: "Pull requests to Discord",
        enabled: true,
        groupId: "backend",
        filters: [{ type: "event", value: "pull_request" }],
        targets: [target],
      }])).ok,
    );
    await using _worker = runWorker(app.kv, app.config);
    await withChromium(app.app.fetch, async (page, base) => {
      await page.goto(`${base}/admin/groups/backend`);
      const panel = page.getByTestId("test-event");
      await panel.getByLabel("Sample").selectOption("pull_request.opened");
      await panel.getByRole("button", { name: "Send test event" }).click();
      await panel.getByTestId("test-event-accepted").waitFor();
      await panel.getByTestId("test-event-link").waitFor();
      await panel.locator("[data-testid=test-event-sends] [data-status=ok]").waitFor({
        timeout: 30_000,
      });
      assert.match(
        await panel.getByTestId("test-event-routes").innerText(),
        /Pull requests to Discord: Fired/,
      );
      assert.equal(discord.received.length, 1);
      assert.equal(discord.received[0].chat, CHANNEL);
      await assertGoodEverywhere(page);

      // A request signed with another secret shows in the group's list with what to change.
      const body = utf8(JSON.stringify({ action: "opened", pull_request: { number: 1 } }));
      const refused = await fetch(`${base}/webhook/backend`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "pull_request",
          "x-hub-signature-256": await signGithubBody("an old secret", body),
          "user-agent": "GitHub-Hookshot/1a2b3c",
        },
        body,
      });
      assert.equal(refused.status, 401);
      assert.ok(refused.headers.get("x-switchyard-hint"));
      await refused.body?.cancel();
      await page.reload();
      const rejected = page.getByTestId("rejected");
      await rejected.getByRole("button", { name: "Refresh" }).click();
      const row = rejected.locator("[data-testid=rejection][data-reason=bad_signature]");
      await row.waitFor();
      assert.match(await row.innerText(), /the secret in the sender's settings does not match/);
      assert.match(await row.innerText(), /127\.0\.0\.1/);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.emulateMedia({ colorScheme: "light" });
      await page.evaluate(() => document.documentElement.classList.remove("dark"));
      await panel.getByRole("button", { name: "Send test event" }).click();
      await panel.locator("[data-testid=test-event-sends] [data-status=ok]").waitFor({
        timeout: 30_000,
      });
      await assertGoodEverywhere(page);
      await page.emulateMedia({ colorScheme: "light" });
      await page.evaluate(() => document.documentElement.classList.remove("dark"));
      await capture(page, "group", PANELS);

      // The instance's list, for a super admin: an address that names no group.
      const lost = await fetch(`${base}/webhook/no-such-group`, { method: "POST", body: "{}" });
      assert.equal(lost.status, 404);
      await lost.body?.cancel();
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${base}/admin/groups`);
      await page.locator("[data-testid=rejection][data-reason=unknown_group]").waitFor();
      await assertGoodEverywhere(page);
      await capture(page, "groups", PANELS);

      // The route editor offers the same panel, starting with the editor's sample.
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${base}/admin/routes/backend/edit/prs?sample=push`);
      const editorPanel = page.getByTestId("test-event");
      assert.equal(await editorPanel.getByLabel("Sample").inputValue(), "push");
      await editorPanel.getByLabel("Sample").selectOption("pull_request.closed");
      await editorPanel.getByRole("button", { name: "Send test event" }).click();
      await editorPanel.locator("[data-testid=test-event-sends] [data-status=ok]").waitFor({
        timeout: 30_000,
      });
      await waitFor("the third message", () => discord.received.length === 3);
      await assertGoodEverywhere(page);
      await capture(page, "route-editor", PANELS);
    });
  },
});
