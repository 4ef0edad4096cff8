/**
 * The link confirmation pages in chromium: each names the chat user being linked, continues to
 * GitHub with the pending state, and passes axe at desktop width, in dark mode and at 390 px.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { PROJECT_ROOT } from "../lib/app.ts";
import { loadAssets } from "../lib/fresh/assets.ts";
import { createLinkState, type PendingLink } from "../lib/store/links.ts";
import { startTestApp } from "./_helpers.ts";
import { assertGoodEverywhere, hasChromium, withChromium } from "./_browser.ts";
import { githubEnv, startFakeGitHub } from "./fake_github.ts";

/** Opens the link page of a new pending link in chromium and runs `check` on it. */
async function withLinkPage(
  pending: PendingLink,
  path: string,
  check: (page: Page, context: { base: string; state: string; github: string }) => Promise<void>,
) {
  await using github = startFakeGitHub();
  const assets = await loadAssets(PROJECT_ROOT);
  assert.ok(assets.client, "assets are not built: run `deno task build` first");
  await using t = await startTestApp(githubEnv(github), assets);
  const state = await createLinkState(t.kv, pending);
  await withChromium(t.app.fetch, async (page, base) => {
    await page.goto(`${base}${path}?state=${state}`);
    await check(page, { base, state, github: github.url });
  }, [/404/]);
}

/** The page's "continue" link goes to GitHub's authorize address with the state. */
async function assertContinuesToGitHub(page: Page, github: string, state: string) {
  const next = page.getByRole("link", { name: /continue to GitHub/ });
  const href = new URL((await next.getAttribute("href"))!);
  assert.equal(href.origin, github);
  assert.equal(href.searchParams.get("state"), state);
}

Deno.test({
  name: "discord link page: names the Discord user and continues to GitHub on confirmation",
  ignore: !hasChromium,
  async fn() {
    const pending = { discordUserId: "400000000000000004", discordName: "<b>Grace</b>" };
    await withLinkPage(pending, "/discord/link", async (page, { base, state, github }) => {
      assert.equal(await page.locator("h1").textContent(), "Link Discord to GitHub");
      assert.equal(await page.locator("main strong").textContent(), "<b>Grace</b>");
      await assertContinuesToGitHub(page, github, state);
      await assertGoodEverywhere(page);

      await page.goto(`${base}/discord/link?state=unknown-state-value`);
      assert.equal(await page.locator("h1").textContent(), "Link not valid");
      await assertGoodEverywhere(page);
    });
  },
});

Deno.test({
  name: "telegram link page: names the Telegram user and continues to GitHub on confirmation",
  ignore: !hasChromium,
  async fn() {
    const pending = {
      telegramUserId: "123456789",
      telegramChatId: "123456789",
      telegramName: "Mona",
    };
    await withLinkPage(pending, "/telegram/link", async (page, { state, github }) => {
      assert.equal(await page.locator("h1").textContent(), "Link Telegram to GitHub");
      assert.equal(await page.locator("main strong").textContent(), "Mona");
      await assertContinuesToGitHub(page, github, state);
      await assertGoodEverywhere(page);
    });
  },
});
