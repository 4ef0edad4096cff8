/**
 * The first run without a shell: everything from the console, nothing signed or sent by hand.
 * A new admin creates a group, generates its secret (never copied), allows a Discord channel,
 * builds a route, sends the bundled pull request from the group's test-event panel and sees it
 * delivered, then sends the bundled push, which fires nothing, and reads on its event page why.
 * A fake Discord answers. Skipped when chromium is not installed.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { assertGoodEverywhere, hasChromium, startConsoleWorld, withChromium } from "../_browser.ts";
import { runWorker } from "../_delivery_helpers.ts";

const CHANNEL = "123456789012345678";

/** Sends a bundled sample from the group page's panel and waits until it is accepted. */
async function sendSample(page: Page, base: string, sample: string) {
  await page.goto(`${base}/admin/groups/backend-team`);
  const panel = page.getByTestId("test-event");
  await panel.getByLabel("Sample").selectOption(sample);
  await panel.getByRole("button", { name: "Send test event" }).click();
  await panel.getByTestId("test-event-accepted").waitFor();
  return panel;
}

Deno.test({
  name:
    "first run without a shell: group, secret, route, test event delivered, and why a push is not",
  ignore: !hasChromium,
  async fn() {
    await using world = await startConsoleWorld();
    const { app, discord } = world;
    await using _worker = runWorker(app.kv, app.config);
    await withChromium(app.app.fetch, async (page, base) => {
      await page.goto(`${base}/admin/groups`);
      await page.getByLabel("Name", { exact: true }).fill("Backend team");
      await page.getByRole("button", { name: "Create group" }).click();
      await page.waitForURL(`${base}/admin/groups/backend-team?created=1`);
      await page.getByRole("button", { name: "Generate secret" }).click();
      await page.getByRole("button", { name: "Copy secret" }).waitFor();
      await page.locator("#target-id").fill(CHANNEL);
      await page.getByRole("button", { name: "Allow target" }).click();
      await page.getByTestId("allowed-targets").getByText(CHANNEL).waitFor();

      await page.goto(`${base}/admin/routes/backend-team/new`);
      await page.locator("[data-ready=true]").waitFor();
      await page.getByLabel("Name", { exact: true }).fill("Pull requests to Discord");
      await page.getByLabel("Channel id").fill(CHANNEL);
      await page.getByRole("button", { name: "+ Event filter in the all group" }).click();
      await page.locator("[data-testid=node][data-kind=event]")
        .getByLabel("Event kind", { exact: true }).fill("pull_request");
      await page.locator("[data-testid=verdict-summary][data-matched=true]").waitFor();
      await page.getByRole("button", { name: "Create route" }).click();
      await page.waitForURL(/\/admin\/routes\/backend-team\/edit\/pull-requests-to-discord/);

      // The bundled pull request goes through the group's ingress and reaches Discord.
      const panel = await sendSample(page, base, "pull_request.opened");
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

      // The bundled push fires nothing; its event page says why in words.
      const push = await sendSample(page, base, "push");
      await push.getByTestId("test-event-link").click();
      await page.getByRole("heading", { name: "Why did this event not arrive?" }).waitFor();
      const verdict = page.locator("[data-route-id=pull-requests-to-discord]");
      assert.equal(await verdict.getByTestId("route-fired").innerText(), "did not fire");
      // The event filter took its action from the sample the editor showed.
      assert.equal(
        await verdict.getByTestId("route-verdict").innerText(),
        "Did not fire: the route wants pull_request.opened events; this is push.",
      );
      assert.equal(discord.received.length, 1, "the push reached no chat");
      await assertGoodEverywhere(page);
    });
  },
});
