/**
 * Shared pieces of the several-instances tests: a temporary KV file, and app instances that
 * each open their own handle on it (as separate processes on one store would).
 */
import { join } from "node:path";
import { createApp } from "../lib/app.ts";
import { loadConfig } from "../lib/config.ts";
import { captureLog, type TestApp } from "./_helpers.ts";

/** A temporary directory holding one KV file; dispose it with `await using`. */
export interface SharedStore extends AsyncDisposable {
  kvPath: string;
}

/** Makes a temporary KV file for several instances to share. */
export async function sharedStore(): Promise<SharedStore> {
  const dir = await Deno.makeTempDir({ prefix: "switchyard-shared-" });
  return {
    kvPath: join(dir, "shared.kv"),
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** Starts an app instance on its own handle of the KV file at `kvPath`, with `env` settings. */
export async function startInstanceApp(
  kvPath: string,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const kv = await Deno.openKv(kvPath);
  const config = loadConfig({ KV_PATH: kvPath, ...env });
  const { log, lines } = captureLog();
  const app = createApp({ kv, config, log });
  return {
    app,
    kv,
    config,
    lines,
    fetch: async (path, init) => await app.fetch(new Request(`http://localhost${path}`, init)),
    [Symbol.asyncDispose]: () => Promise.resolve(kv.close()),
  };
}
