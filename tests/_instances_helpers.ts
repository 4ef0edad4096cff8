/**
 * Shared pieces of the several-instances tests: one store for several instances (a temporary KV
 * file, or a PostgreSQL database with `TEST_STORE=postgres`: testing/test_store.ts), and app
 * instances that each open their own handle on it (as separate processes on one store would).
 */
import { createApp } from "../lib/app.ts";
import { loadConfig } from "../lib/config.ts";
import type { InstanceOptions } from "../testing/instances.ts";
import { type SharedTestStore, sharedTestStore } from "../testing/test_store.ts";
import { captureLog, type TestApp } from "./_helpers.ts";

/** Makes a store for several instances to share; dispose it with `await using`. */
export async function sharedStore(): Promise<SharedTestStore> {
  return await sharedTestStore();
}

/** Where a subprocess instance (testing/instances.ts) finds `store`. */
export function instanceStore(
  store: SharedTestStore,
): Pick<InstanceOptions, "kvPath" | "databaseUrl"> {
  return store.settings.databaseUrl
    ? { databaseUrl: store.settings.databaseUrl }
    : { kvPath: store.settings.kvPath };
}

/** Starts an app instance on its own handle of `store`, with `env` settings. */
export async function startInstanceApp(
  store: SharedTestStore,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const kv = await store.open();
  const config = loadConfig({ ...store.env, ...env });
  const { log, lines } = captureLog();
  const app = createApp({ kv, config, log });
  return {
    app,
    kv,
    config,
    lines,
    fetch: async (path, init) => await app.fetch(new Request(`http://localhost${path}`, init)),
    [Symbol.asyncDispose]: () => kv[Symbol.asyncDispose](),
  };
}
