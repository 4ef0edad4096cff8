/** Opening the Deno KV store. */
import { folderOf } from "../file_path.ts";

/** Whether a KV path is a KV Connect URL (a remote store) rather than a file. */
export function isRemoteStore(path: string | undefined): boolean {
  return path !== undefined && /^https?:\/\//i.test(path);
}

/**
 * Opens Deno KV at `path`: `:memory:` for a throw-away store, a file path for
 * the embedded SQLite store (its folder is created), a KV Connect URL
 * (`https://…`; Deno reads DENO_KV_ACCESS_TOKEN), or undefined for the
 * platform's default (Deno Deploy).
 */
export async function openStore(path: string | undefined): Promise<Deno.Kv> {
  if (path && path !== ":memory:" && !isRemoteStore(path)) {
    await Deno.mkdir(folderOf(path), { recursive: true });
  }
  return await Deno.openKv(path);
}

/** Closes a store opened with {@link openStore}; pending reads and job worker wake-ups end. */
export function closeStore(kv: Deno.Kv): void {
  kv.close();
}
