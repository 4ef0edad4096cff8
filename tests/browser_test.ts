/**
 * Browser tests: the console in Debian's chromium, driven by playwright-core.
 * Skipped with a message when chromium is not installed (CI installs it).
 */
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { PROJECT_ROOT } from "../lib/app.ts";
import { loadAssets } from "../lib/fresh/assets.ts";
import { startTestApp } from "./_helpers.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = await Deno.stat(CHROMIUM).then(() => true, () => false);
if (!hasChromium) console.warn(`browser tests skipped: ${CHROMIUM} is not installed`);

const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Serves the app on a free loopback port and opens a chromium page on it. */
async function withBrowser(
  run: (page: import("playwright-core").Page, base: string) => Promise<void>,
) {
  const assets = await loadAssets(PROJECT_ROOT);
  assert.ok(assets.client, "assets are not built: run `deno task build` first");
  await using testApp = await startTestApp({ DEBUG_MODE: "true" }, assets);
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    testApp.app.fetch,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await run(page, `http://127.0.0.1:${server.addr.port}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.shutdown();
  }
}

Deno.test({
  name: "console: the JSONPath tester resolves paths live in the browser",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(async (page, base) => {
      await page.goto(`${base}/admin`);
      await page.waitForSelector("sy-island[data-island=PathTester]");
      const values = page.getByTestId("value");
      await values.first().waitFor();
      assert.deepEqual(await values.allTextContents(), ['"bug"', '"backend"']);

      await page.getByTestId("path").fill("$.pull_request.number");
      await page.getByTestId("count").getByText("1 value").waitFor();
      assert.deepEqual(await values.allTextContents(), ["42"]);

      await page.getByTestId("payload").fill('{"labels":[{"name":"ci"}]}');
      await page.getByTestId("path").fill("labels[*].name");
      await page.getByTestId("count").getByText("1 value").waitFor();
      assert.deepEqual(await values.allTextContents(), ['"ci"']);

      await page.getByTestId("payload").fill("{not json");
      await page.getByTestId("error").waitFor();
      assert.match(await page.getByTestId("error").innerText(), /not valid JSON/);
    });
  },
});

Deno.test({
  name: "console: navigation reaches every tab and marks the current one",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(async (page, base) => {
      await page.goto(`${base}/admin`);
      for (const tab of ["Groups", "Logs", "Audit", "Overview"]) {
        await page.getByRole("navigation").getByRole("link", { name: tab }).click();
        await page.getByRole("heading", { level: 1, name: tab }).waitFor();
        const current = page.locator('nav a[aria-current="page"]');
        assert.equal(await current.innerText(), tab);
      }
      const styled = await page.locator("header").evaluate((el) =>
        getComputedStyle(el).backgroundColor
      );
      assert.equal(styled, "rgb(255, 255, 255)");
    });
  },
});
