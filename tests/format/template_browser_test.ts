/**
 * The route editor's "Message template" section in a browser: collapsed at first, checked as
 * you type with the parser's line and column, previewed live on the sample event, saved with
 * the route, and free of axe violations. Skipped when chromium is not installed.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { loadAssets } from "../../lib/fresh/assets.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import type { Route } from "../../lib/types.ts";
import { assertNoAxeViolations, hasChromium, withChromium } from "../_browser.ts";
import { startTestApp } from "../_helpers.ts";

const ROUTE: Route = {
  id: "prs",
  name: "PRs",
  enabled: true,
  groupId: "alpha",
  filters: [{ type: "event", value: "pull_request" }],
  targets: [{ platform: "discord", channelId: "123456789012345678" }],
};

Deno.test({
  name: "route editor: a message template is checked, previewed live and saved with the route",
  ignore: !hasChromium,
  async fn() {
    const assets = await loadAssets(PROJECT_ROOT);
    assert.ok(assets.client, "assets are not built: run `deno task build` first");
    await using app = await startTestApp({ DEBUG_MODE: "true" }, assets);
    await putGroup(app.kv, {
      id: "alpha",
      name: "Alpha",
      members: [{ userId: "1", login: "olivia", role: "owner" }],
    });
    assert.ok((await replaceRoutes(app.kv, [ROUTE])).ok);
    await withChromium(app.app.fetch, async (page, base) => {
      await page.goto(`${base}/admin/routes/alpha/edit/prs`);
      await page.locator("[data-ready=true]").waitFor();
      const section = page.getByTestId("template-editor");
      assert.equal(await section.getAttribute("open"), null, "collapsed by default");
      await page.getByText("(built-in message)").waitFor();
      const discord = page.getByTestId("discord-preview");
      await discord.getByText(/Update the README/).waitFor();

      await section.locator("summary").click();
      const body = page.getByLabel("Body", { exact: true });
      await body.fill("Hello {{#if sender}}");
      await page.getByText("line 1, column 7: {{#if}} is not closed (missing {{/if}})").waitFor();
      assert.equal(await body.getAttribute("aria-invalid"), "true");
      await page.getByTestId("preview-template-error").waitFor();

      await body.fill("{{bold sender.login}} wrote {{code pull_request.title}} <script>x</script>");
      await page.getByLabel("Title (optional)").fill("PR #{{number}} by {{sender.login}}");
      await discord.getByText("PR #2 by Codertocat").waitFor();
      await discord.locator("strong", { hasText: "Codertocat" }).waitFor();
      await discord.locator("code", { hasText: "Update the README" }).waitFor();
      await discord.getByText("<script>x</script>", { exact: false }).waitFor();
      await page.getByTestId("telegram-preview").getByText("PR #2 by Codertocat").waitFor();
      assert.equal(await page.getByTestId("preview-template-error").count(), 0);
      await page.getByText("(in use)").waitFor();
      await assertNoAxeViolations(page);

      const status = page.getByTestId("status");
      await page.getByRole("button", { name: "Save route" }).click();
      await status.getByText("Route saved").waitFor();
      await status.getByRole("button", { name: "Dismiss message" }).click();
      await status.getByText("Route saved").waitFor({ state: "detached" });
      const [saved] = (await getRoutes(app.kv)).routes;
      assert.deepEqual(saved.template, {
        title: "PR #{{number}} by {{sender.login}}",
        body: "{{bold sender.login}} wrote {{code pull_request.title}} <script>x</script>",
      });

      await body.fill("");
      await page.getByText("A title takes effect only with a body.").waitFor();
      await page.getByRole("button", { name: "Save route" }).click();
      await status.getByText("Route saved").waitFor();
      assert.equal((await getRoutes(app.kv)).routes[0].template, undefined);
    });
  },
});
