/**
 * Browser tests: the console in Debian's chromium, driven by playwright-core.
 * Skipped with a message when chromium is not installed (CI installs it).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { PAGE_CSP } from "../../lib/fresh/security_headers.ts";
import {
  assertNoAxeViolations,
  hasChromium,
  startConsoleApp,
  untilHydrated,
  withChromium,
} from "../_browser.ts";

/** Runs `run` in chromium against the app with its built assets. */
async function withBrowser(run: (page: Page, base: string) => Promise<void>) {
  await using testApp = await startConsoleApp({ DEBUG_MODE: "true" });
  await withChromium(testApp.app.fetch, run);
}

Deno.test({
  name: "console: the JSONPath tester resolves paths live in the browser",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(async (page, base) => {
      const res = await page.goto(`${base}/admin`);
      assert.equal(res?.headers()["content-security-policy"], PAGE_CSP);
      await page.waitForSelector("sy-island[data-island=PathTester]");
      const values = page.getByTestId("value");
      await values.first().waitFor();
      assert.deepEqual(await values.allTextContents(), ['"bug"', '"backend"']);

      const count = page.getByTestId("count");
      await untilHydrated(
        "the tester answers a new path",
        () => page.getByTestId("path").fill("$.pull_request.number"),
        async () => (await count.innerText()) === "1 value",
      );
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

Deno.test({
  name: "console: axe-core finds no accessibility violation on any console page",
  ignore: !hasChromium,
  async fn() {
    await withBrowser(async (page, base) => {
      for (const path of ["/admin", "/admin/groups", "/admin/logs", "/admin/audit"]) {
        await page.goto(`${base}${path}`);
        await assertNoAxeViolations(page);
      }
    });
  },
});
