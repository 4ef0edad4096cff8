/**
 * Opening the store: Deno KV (the default) or PostgreSQL (when DATABASE_URL is set).
 * Both are a {@link Kv} (./backend/types.ts); Deno KV is the `Kv` object itself.
 */
import { folderOf } from "../file_path.ts";
import { openPostgresStore, PostgresKv } from "./backend/postgres/store.ts";
import type { Kv } from "./backend/types.ts";

/** Whether a KV path is a KV Connect URL (a remote store) rather than a file. */
export function isRemoteStore(path: string | undefined): boolean {
  return path !== undefined && /^https?:\/\//i.test(path);
}

/** The settings that choose the store (a subset of `Config`). */
export interface StoreSettings {
  kvPath: string | undefined;
  databaseUrl?: string;
  databasePoolSize?: number;
}

/** Connections of the PostgreSQL pool when the settings do not say. */
const DEFAULT_POOL_SIZE = 10;

/**
 * Opens the store. Given settings: PostgreSQL when `databaseUrl` is set (it wins over
 * `kvPath`; the schema is migrated first), else Deno KV at `kvPath`. Given a path: Deno KV at
 * that path: `:memory:` for a throw-away store, a file path for the embedded SQLite store (its
 * folder is created), a KV Connect URL (`https://…`; Deno reads DENO_KV_ACCESS_TOKEN), or
 * undefined for the platform's default (Deno Deploy).
 */
export function openStore(path: string | undefined): Promise<Kv>;
export function openStore(settings: StoreSettings): Promise<Kv>;
export async function openStore(where: string | undefined | StoreSettings): Promise<Kv> {
  if (typeof where === "object" && where.databaseUrl) {
    return await openPostgresStore({
      url: where.databaseUrl,
      poolSize: where.databasePoolSize ?? DEFAULT_POOL_SIZE,
    });
  }
  return await openDenoKv(typeof where === "object" ? where.kvPath : where);
}

async function openDenoKv(path: string | undefined): Promise<Kv> {
  if (path && path !== ":memory:" && !isRemoteStore(path)) {
    await Deno.mkdir(folderOf(path), { recursive: true });
  }
  return await Deno.openKv(path);
}

/**
 * Closes a store opened with {@link openStore}: pending reads, watches and job worker wake-ups
 * end; for PostgreSQL the returned promise resolves once the pool's connections are closed.
 */
export async function closeStore(kv: Kv): Promise<void> {
  kv.close();
  if (kv instanceof PostgresKv) await kv.closed;
}
