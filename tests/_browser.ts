/**
 * Browser test helpers: Debian's chromium driven by playwright-core. Tests
 * skip with a message when chromium is not installed (CI installs it).
 */
import assert from "node:assert/strict";
import axe from "axe-core";
import { chromium, type Page } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";

/** Whether chromium is installed; browser tests pass `ignore: !hasChromium`. */
export const hasChromium = await Deno.stat(CHROMIUM).then(() => true, () => false);
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

/**
 * Serves `fetch` on a free loopback port and runs `run` in a chromium page on
 * it. Afterwards asserts that the page threw nothing and logged no error (a
 * script or style the Content-Security-Policy refused logs one), except the
 * errors matching `options.expectedErrors` (chromium logs every 4xx answer of
 * a `fetch`, such as a 409 the test provokes).
 */
export async function withChromium(
  fetch: (req: Request) => Response | Promise<Response>,
  run: (page: Page, base: string) => Promise<void>,
  options: { expectedErrors?: RegExp } = {},
): Promise<void> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, fetch);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      if (options.expectedErrors?.test(message.text())) return;
      errors.push(message.text());
    });
    await run(page, `http://127.0.0.1:${server.addr.port}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.shutdown();
  }
}

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page (WCAG 2.x A and AA rules) and asserts that it reports no
 * violation, naming each rule and the elements that break it.
 */
export async function assertNoAxeViolations(page: Page): Promise<void> {
  await page.evaluate((axe as unknown as { source: string }).source);
  const violations = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const runner = (globalThis as any).axe;
    const result = await runner.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations as AxeViolation[];
  });
  const readable = violations.map((violation) =>
    `${violation.id}: ${violation.help} (${
      violation.nodes.map((node) => node.target.join(" ")).join(", ")
    })`
  );
  assert.deepEqual(readable, [], `axe-core violations on ${page.url()}`);
}
