/**
 * Browser test helpers: Debian's chromium driven by playwright-core, the console app with its
 * built islands (alone, or with a fake Discord to post to), and screenshots. Tests skip with a
 * message when chromium is not installed (CI installs it).
 */
import assert from "node:assert/strict";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { PROJECT_ROOT } from "../lib/app.ts";
import { loadAssets } from "../lib/fresh/assets.ts";
import { type FakeDiscord, startFakeDiscord } from "../testing/fake_chat.ts";
import { CHROMIUM, hasChromium, launchChromium } from "../scripts/chromium.ts";
import { startTestApp, type TestApp } from "./_helpers.ts";

/** Whether chromium is installed; browser tests pass `ignore: !hasChromium`. */
export { hasChromium };
if (!hasChromium) console.warn(`browser tests skipped: ${CHROMIUM} is not installed`);

/**
 * Repeats `act` until `done` holds: for the first action on an island, which does nothing while
 * the island has not hydrated yet. `act` may run again only while it has had no effect, which
 * `done` sees at once (Preact renders a change before the page handles the next command). Fails
 * naming `what` after `timeoutMs`.
 */
export async function untilHydrated(
  what: string,
  act: () => Promise<void>,
  done: () => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    await act();
    if (await done()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Serves `fetch` on a free loopback port and runs `run` in a chromium page on
 * it. Afterwards asserts that the page threw nothing and logged no error (a
 * script or style the Content-Security-Policy refused logs one) other than those
 * matching `expectedErrors` (a page answered with an error status logs one).
 */
export async function withChromium(
  fetch: (req: Request) => Response | Promise<Response>,
  run: (page: Page, base: string) => Promise<void>,
  expectedErrors: readonly RegExp[] = [],
): Promise<void> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, fetch);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      errors.push(message.text());
    });
    await run(page, `http://127.0.0.1:${server.addr.port}`);
    assert.deepEqual(errors.filter((error) => !expectedErrors.some((e) => e.test(error))), []);
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

/**
 * axe-core finds nothing in the page as it is, in dark mode, and at 390 px wide, where no
 * part of the page's content reaches past the right edge. The page is left as it was.
 */
export async function assertGoodEverywhere(page: Page): Promise<void> {
  await assertNoAxeViolations(page);
  const size = page.viewportSize()!;
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await assertNoAxeViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const widest = await page.evaluate(() =>
    Math.max(
      ...[...document.querySelectorAll("main, main *")].map((element) =>
        Math.ceil(element.getBoundingClientRect().right)
      ),
    )
  );
  assert.ok(widest <= 390, `content reaches ${widest}px at 390px wide on ${page.url()}`);
  await assertNoAxeViolations(page);
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: "light" });
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

/** The console app with `env` on a fresh store, serving the built islands (asserts they are). */
export async function startConsoleApp(env: Record<string, string> = {}): Promise<TestApp> {
  const assets = await loadAssets(PROJECT_ROOT);
  assert.ok(assets.client, "assets are not built: run `deno task build` first");
  return await startTestApp(env, assets);
}

/** The console in DEBUG_MODE with a Discord bot token, posting to a fake Discord. */
export interface ConsoleWorld extends AsyncDisposable {
  app: TestApp;
  discord: FakeDiscord;
}

/** Starts a {@link ConsoleWorld}; dispose it with `await using` (the app, then the fake). */
export async function startConsoleWorld(): Promise<ConsoleWorld> {
  const discord = startFakeDiscord();
  try {
    const app = await startConsoleApp({
      DEBUG_MODE: "true",
      DISCORD_BOT_TOKEN: "test-bot-token",
      DISCORD_API_URL: discord.url,
    });
    return {
      app,
      discord,
      async [Symbol.asyncDispose]() {
        await app[Symbol.asyncDispose]();
        await discord[Symbol.asyncDispose]();
      },
    };
  } catch (error) {
    await discord[Symbol.asyncDispose]();
    throw error;
  }
}

const SHOTS = Deno.env.get("SCREENSHOTS_DIR");

/**
 * With `SCREENSHOTS_DIR` set, saves the page (and each of `panels`, by test id, that it shows)
 * at desktop, 390 px and dark (desktop) as `<name>[-<panel>]-<mode>.png`; the page is left light
 * at desktop size. Does nothing otherwise.
 */
export async function capture(page: Page, name: string, panels: readonly string[] = []) {
  if (!SHOTS) return;
  await Deno.mkdir(SHOTS, { recursive: true });
  const modes = [["desktop", 1280, "light"], ["390", 390, "light"], [
    "dark",
    1280,
    "dark",
  ]] as const;
  for (const [mode, width, scheme] of modes) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(
      (dark) => document.documentElement.classList.toggle("dark", dark),
      scheme === "dark",
    );
    await page.screenshot({ path: `${SHOTS}/${name}-${mode}.png`, fullPage: true });
    for (const panel of panels) {
      const element = page.getByTestId(panel);
      if (await element.count() === 0) continue;
      await element.screenshot({ path: `${SHOTS}/${name}-${panel}-${mode}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}
