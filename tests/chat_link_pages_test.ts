/**
 * The link confirmation pages in chromium: each names the chat user being linked, and passes
 * axe at desktop width, in dark mode and at 390 px.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../lib/app.ts";
import { loadAssets } from "../lib/fresh/assets.ts";
import { createLinkState } from "../lib/store/links.ts";
import { startTestApp } from "./_helpers.ts";
import { assertGoodEverywhere, hasChromium, withChromium } from "./_browser.ts";
import { githubEnv, startFakeGitHub } from "./fake_github.ts";

Deno.test({
  name: "discord link page: names the Discord user and continues to GitHub on confirmation",
  ignore: !hasChromium,
  async fn() {
    await using github = startFakeGitHub();
    const assets = await loadAssets(PROJECT_ROOT);
    assert.ok(assets.client, "assets are not built: run `deno task build` first");
    await using t = await startTestApp(githubEnv(github), assets);
    const state = await createLinkState(t.kv, {
      discordUserId: "400000000000000004",
      discordName: "<b>Grace</b>",
    });
    await withChromium(t.app.fetch, async (page, base) => {
      await page.goto(`${base}/discord/link?state=${state}`);
      assert.equal(await page.locator("h1").textContent(), "Link Discord to GitHub");
      assert.equal(await page.locator("main strong").textContent(), "<b>Grace</b>");
      const next = page.getByRole("link", { name: /continue to GitHub/ });
      const href = new URL((await next.getAttribute("href"))!);
      assert.equal(href.origin, github.url);
      assert.equal(href.searchParams.get("state"), state);
      await assertGoodEverywhere(page);

      await page.goto(`${base}/discord/link?state=unknown-state-value`);
      assert.equal(await page.locator("h1").textContent(), "Link not valid");
      await assertGoodEverywhere(page);
    }, [/404/]);
  },
});

Deno.test({
  name: "telegram link page: names the Telegram user and continues to GitHub on confirmation",
  ignore: !hasChromium,
  async fn() {
    await using github = startFakeGitHub();
    const assets = await loadAssets(PROJECT_ROOT);
    assert.ok(assets.client, "assets are not built: run `deno task build` first");
    await using t = await startTestApp(githubEnv(github), assets);
    const state = await createLinkState(t.kv, {
      telegramUserId: "123456789",
      telegramChatId: "123456789",
      telegramName: "Mona",
    });
    await withChromium(t.app.fetch, async (page, base) => {
      await page.goto(`${base}/telegram/link?state=${state}`);
      assert.equal(await page.locator("h1").textContent(), "Link Telegram to GitHub");
      assert.equal(await page.locator("main strong").textContent(), "Mona");
      const next = page.getByRole("link", { name: /continue to GitHub/ });
      assert.equal(new URL((await next.getAttribute("href"))!).searchParams.get("state"), state);
      await assertGoodEverywhere(page);
    });
  },
});
