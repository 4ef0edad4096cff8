/**
 * Shared test helpers: settings, a captured logger, an app on a fresh test store, and a bounded
 * wait for a condition.
 */
import type { Kv } from "../lib/store/backend/types.ts";
import type { Hono } from "hono";
import { createApp } from "../lib/app.ts";
import { type Config, loadConfig } from "../lib/config.ts";
import type { Assets } from "../lib/fresh/assets.ts";
import { createAdapters, type Limiters } from "../lib/delivery/adapters.ts";
import { createLogger, type Logger } from "../lib/log.ts";
import { openTestKv } from "../testing/test_store.ts";

/** Settings for tests: the defaults plus `env`, with an in-memory KV. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ KV_PATH: ":memory:", ...env });
}

/** A logger that keeps its lines (parsed) instead of printing them. */
export function captureLog(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ minLevel: "debug", sink: (line) => lines.push(JSON.parse(line)) });
  return { log, lines };
}

/** A running app on a fresh in-memory KV; dispose it with `await using`. */
export interface TestApp extends AsyncDisposable {
  app: Hono;
  kv: Kv;
  config: Config;
  lines: Record<string, unknown>[];
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * Starts the app on a fresh store (a `:memory:` KV, or a PostgreSQL database with
 * `TEST_STORE=postgres`: testing/test_store.ts) with the given settings, its chat adapters
 * holding the rate limiters in `limiters` (default ones otherwise).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  assets?: Assets,
  limiters: Limiters = {},
): Promise<TestApp> {
  const kv = await openTestKv();
  const config = testConfig(env);
  const { log, lines } = captureLog();
  const adapters = createAdapters(config, limiters);
  const app = createApp({ kv, config, log, assets, adapters });
  return {
    app,
    kv,
    config,
    lines,
    fetch: async (path, init) => await app.fetch(new Request(`http://localhost${path}`, init)),
    [Symbol.asyncDispose]: () => kv[Symbol.asyncDispose](),
  };
}

/**
 * Waits until `check` holds, polling every 10 ms. Fails after `timeoutMs` with a message naming
 * `what`: the bound only turns a hang into a clear failure, it is not a timing assertion.
 */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
