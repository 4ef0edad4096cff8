/**
 * No silent failure, in a browser: a person saves a Telegram route on an instance without
 * `TELEGRAM_BOT_TOKEN`. The editor says so as the target is chosen; after saving, the routes
 * list and the overview name the problem with the setting to set; a test event's message waits
 * in the logs with the same fix (held, not failed). axe finds nothing on the pages. Skipped when
 * chromium is not installed.
 */
import assert from "node:assert/strict";
import { allowTargets } from "../../lib/store/config/allowed_targets.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { getRoutes } from "../../lib/store/config/routes.ts";
import { listSendLogs } from "../../lib/store/delivery/send_logs.ts";
import { assertGoodEverywhere, hasChromium, startConsoleApp, withChromium } from "../_browser.ts";
import { runWorker } from "../_delivery_helpers.ts";
import { waitFor } from "../_helpers.ts";

const CHAT = "-1001234567890";

Deno.test({
  name:
    "no token: a Telegram route is flagged in the editor, the routes list, the overview and the log",
  ignore: !hasChromium,
  async fn() {
    await using app = await startConsoleApp({ DEBUG_MODE: "true" });
    const operator = { userId: "1", login: "olivia" };
    await putGroup(app.kv, {
      id: "backend",
      name: "Backend",
      members: [{ ...operator, role: "owner" }],
    });
    await regenerateGroupSecret(app.kv, "backend");
    const target = { platform: "telegram" as const, chatId: CHAT };
    assert.ok((await allowTargets(app.kv, "backend", [target], operator, "admin")).ok);
    await using _worker = runWorker(app.kv, app.config);

    await withChromium(app.app.fetch, async (page, base) => {
      await page.goto(`${base}/admin/routes/backend/new`);
      await page.locator("[data-ready=true]").waitFor();
      await page.locator("[data-testid=verdict-summary]:not([data-matched=unknown])").waitFor();
      await page.getByLabel("Name", { exact: true }).fill("Pull requests to Telegram");
      await page.locator("#target-0-platform").selectOption("telegram");
      const warning = page.getByTestId("platform-not-configured");
      await warning.waitFor();
      assert.match(await warning.innerText(), /set TELEGRAM_BOT_TOKEN and restart/);
      await page.getByLabel("Chat id or @channel").fill(CHAT);
      await page.getByRole("button", { name: "+ Event filter in the all group" }).click();
      await page.locator("[data-testid=node][data-kind=event]")
        .getByLabel("Event kind", { exact: true }).fill("pull_request");
      await page.locator("[data-testid=verdict-summary][data-matched=true]").waitFor();
      await page.getByRole("button", { name: "Create route" }).click();
      await page.waitForURL(/\/admin\/routes\/backend\/edit\/pull-requests-to-telegram/);
      await warning.waitFor();
      const [saved] = (await getRoutes(app.kv)).routes;
      assert.deepEqual(saved.targets, [target]);

      for (const path of ["/admin/routes/backend", "/admin"]) {
        await page.goto(`${base}${path}`);
        const problems = page.getByTestId("route-problems");
        await problems.waitFor();
        const text = await problems.innerText();
        assert.match(text, /Platform not configured/, path);
        assert.match(text, /Pull requests to Telegram/, path);
        assert.match(text, /Set TELEGRAM_BOT_TOKEN in Switchyard's settings and restart it/, path);
        await assertGoodEverywhere(page);
      }

      // A test event's message waits with the fix instead of failing.
      await page.goto(`${base}/admin/groups/backend`);
      const panel = page.getByTestId("test-event");
      await panel.getByLabel("Sample").selectOption("pull_request.opened");
      await panel.getByRole("button", { name: "Send test event" }).click();
      await panel.getByTestId("test-event-accepted").waitFor();
      await waitFor("the message to wait for the token", async () => {
        const { items } = await listSendLogs(app.kv, { groupId: "backend" });
        return items.length === 1 && /TELEGRAM_BOT_TOKEN/.test(items[0].error ?? "");
      });
      const [log] = (await listSendLogs(app.kv, { groupId: "backend" })).items;
      assert.equal(log.status, "retrying");
      assert.equal(log.attempts, 0);
      await page.goto(`${base}/admin/logs?groupId=backend`);
      await page.getByText(/Telegram is not configured: set TELEGRAM_BOT_TOKEN/).first().waitFor();
      await assertGoodEverywhere(page);
    });
  },
});
