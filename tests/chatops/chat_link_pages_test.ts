/**
 * The chat link pages in chromium: the first page names the chat account by its username and
 * continues to GitHub on confirmation; after GitHub the two accounts are shown side by side and
 * linked on the second confirmation. Each page passes axe at desktop width, in dark mode and at
 * 390 px.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { type ChatLinkStart, startChatLink } from "../../lib/auth/chat_link.ts";
import { loadAssets } from "../../lib/fresh/assets.ts";
import { getDiscordLink, getTelegramLink } from "../../lib/store/auth/links.ts";
import { startTestApp, type TestApp } from "../_helpers.ts";
import { assertGoodEverywhere, hasChromium, withChromium } from "../_browser.ts";
import { type FakeGitHub, githubEnv, startFakeGitHub } from "../fake_github.ts";

const OCTOCAT = { id: 583231, login: "octocat" };

/** Runs `check` in chromium on an app whose GitHub authorizes at once (an earlier consent). */
async function withLinkApp(
  check: (page: Page, context: { base: string; t: TestApp; github: FakeGitHub }) => Promise<void>,
) {
  await using github = startFakeGitHub();
  const assets = await loadAssets(PROJECT_ROOT);
  assert.ok(assets.client, "assets are not built: run `deno task build` first");
  await using t = await startTestApp(githubEnv(github), assets);
  await withChromium(t.app.fetch, (page, base) => check(page, { base, t, github }), [/40[034]/]);
}

/** The link page address of a new request, on the browser's origin. */
async function linkPage(t: TestApp, base: string, start: ChatLinkStart): Promise<string> {
  const url = new URL(await startChatLink(t.kv, t.config, start));
  return `${base}${url.pathname}${url.search}`;
}

/** Sends GitHub's authorize page straight back with octocat's code, as GitHub does after consent. */
async function githubAuthorizesAtOnce(page: Page, github: FakeGitHub, base: string) {
  await page.route(`${github.url}/login/oauth/authorize**`, async (route) => {
    const asked = new URL(route.request().url());
    const back = new URL("/auth/github/callback", base);
    back.search = new URLSearchParams({
      code: github.issueCode(OCTOCAT),
      state: asked.searchParams.get("state")!,
    }).toString();
    await route.fulfill({ status: 302, headers: { location: back.href } });
  });
}

for (const platform of ["discord", "telegram"] as const) {
  Deno.test({
    name: `${platform} link pages: username, GitHub, both accounts side by side, linked`,
    ignore: !hasChromium,
    async fn() {
      await withLinkApp(async (page, { base, t, github }) => {
        await githubAuthorizesAtOnce(page, github, base);
        const start = {
          platform,
          chatUserId: "400000000000000004",
          username: platform === "discord" ? "grace.h" : "grace_h",
          telegramChatId: "400000000000000004",
        };
        const name = `@${start.username}`;
        await page.goto(await linkPage(t, base, start));
        assert.match(
          await page.locator("h1").textContent() ?? "",
          /^Link (Discord|Telegram) to GitHub$/,
        );
        assert.ok(await page.getByText(name, { exact: true }).isVisible());
        await assertGoodEverywhere(page);

        await page.getByRole("button", { name: `I am ${name}: continue to GitHub` }).click();
        await page.waitForURL(/\/auth\/github\/callback/);
        assert.equal(await page.locator("h1").textContent(), "Link these accounts?");
        assert.ok(await page.getByText(name, { exact: true }).isVisible());
        assert.ok(await page.getByText("octocat", { exact: true }).isVisible());
        await assertGoodEverywhere(page);
        const linkedBefore = platform === "discord"
          ? await getDiscordLink(t.kv, start.chatUserId)
          : await getTelegramLink(t.kv, start.chatUserId);
        assert.equal(linkedBefore, null, "nothing is linked before the second confirmation");

        await page.getByRole("button", { name: `Link ${name} to octocat` }).click();
        await page.waitForURL(new RegExp(`/${platform}/link$`));
        assert.equal(await page.locator("h1").textContent(), "Accounts linked");
        await assertGoodEverywhere(page);
        const linked = platform === "discord"
          ? await getDiscordLink(t.kv, start.chatUserId)
          : await getTelegramLink(t.kv, start.chatUserId);
        assert.equal(linked?.login, "octocat");
      });
    },
  });
}

Deno.test({
  name: "link pages: a dead link says so, and another browser's GitHub address links nothing",
  ignore: !hasChromium,
  async fn() {
    await withLinkApp(async (page, { base, t, github }) => {
      await page.goto(`${base}/discord/link?token=unknown-token-value`);
      assert.equal(await page.locator("h1").textContent(), "Link not valid");
      await assertGoodEverywhere(page);

      // The attacker's browser continues to GitHub; the victim's browser gets that address.
      const attacker = await linkPage(t, base, {
        platform: "discord",
        chatUserId: "31337",
        username: "mallory",
      });
      const attackerPage = await page.context().browser()!.newPage();
      await attackerPage.route(`${github.url}/**`, (route) => route.abort());
      await attackerPage.goto(attacker);
      const [request] = await Promise.all([
        attackerPage.waitForRequest(`${github.url}/**`),
        attackerPage.getByRole("button", { name: /continue to GitHub/ }).click(),
      ]);
      await attackerPage.close();
      await githubAuthorizesAtOnce(page, github, base);
      await page.goto(request.url());
      assert.match(await page.locator("body").textContent() ?? "", /not started in this browser/);
      assert.equal(await getDiscordLink(t.kv, "31337"), null);
    });
  },
});
