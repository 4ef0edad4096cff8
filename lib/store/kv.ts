/** Opening the Deno KV store. */
import { dirname } from "node:path";

/**
 * Opens Deno KV at `path`: `:memory:` for a throw-away store, a file path for
 * the embedded SQLite store (its folder is created), or undefined for the
 * platform's default (Deno Deploy).
 */
export async function openStore(path: string | undefined): Promise<Deno.Kv> {
  if (path && path !== ":memory:") {
    await Deno.mkdir(dirname(path), { recursive: true });
  }
  return await Deno.openKv(path);
}

/** Closes a store opened with {@link openStore}; pending reads and the queue listener end. */
export function closeStore(kv: Deno.Kv): void {
  kv.close();
}
