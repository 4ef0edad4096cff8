/**
 * Opening the store: Deno KV (the default) or PostgreSQL (when DATABASE_URL is set).
 * Both are a {@link Kv} (./backend/types.ts); Deno KV is the `Kv` object itself.
 */
import { folderOf } from "../file_path.ts";
import { isStoreUnavailable } from "./backend/errors.ts";
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
 * folder is created), a KV Connect URL (`https://…`; Deno reads DENO_KV_ACCESS_TOKEN; untested),
 * or undefined for the runtime's default store.
 */
export function openStore(path: string | undefined): Promise<Kv>;
export function openStore(settings: StoreSettings): Promise<Kv>;
export async function openStore(where: string | undefined | StoreSettings): Promise<Kv> {
  if (typeof where === "object" && where.databaseUrl) {
    // Loaded only here: the client and Node's compatibility layer it needs would add tens of
    // milliseconds to every start on Deno KV.
    const { openPostgresStore } = await import("./backend/postgres/store.ts");
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
  await kv.closed;
}

/** How {@link openStoreWithRetry} waits for a store that cannot be reached yet. */
interface OpenRetryOptions {
  /** The longest time to keep trying, in ms (attempts that would start later are not made). */
  maxWaitMs: number;
  /** Told about each failed attempt before the wait: the reason holds no password. */
  onRetry(attempt: number, reason: string, retryInMs: number): void;
  /** Waits `ms` (tests pass a fake). */
  sleep?(ms: number): Promise<void>;
}

/** Start-up gave up on a store that could not be reached; the message is one line. */
export class StoreOpenGaveUpError extends Error {
  constructor(attempts: number, waitedMs: number, reason: string) {
    super(
      `Cannot open the store: gave up after ${attempts} attempts in ` +
        `${Math.round(waitedMs / 1000)} s: ${reason}`,
    );
    this.name = "StoreOpenGaveUpError";
  }
}

/** The first wait between attempts; it doubles up to {@link LONGEST_RETRY_MS}. */
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 10_000;

/**
 * Opens the store like {@link openStore}, trying again with backoff (0.5 s doubling to 10 s)
 * while it cannot be reached, until `maxWaitMs` have passed (the last attempt at that moment);
 * then throws {@link StoreOpenGaveUpError}.
 * Other errors (a wrong password, a bad file) are thrown at once. Every message thrown is one
 * line without the database password.
 */
export async function openStoreWithRetry(
  settings: StoreSettings,
  options: OpenRetryOptions,
): Promise<Kv> {
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const started = Date.now();
  let slept = 0;
  for (let attempt = 1;; attempt++) {
    try {
      return await openStore(settings);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const reason = oneLine(withoutPassword(message, settings.databaseUrl));
      if (!isStoreUnavailable(error)) {
        throw new Error(`Cannot open the store: ${reason}`, { cause: error });
      }
      const waited = Math.max(Date.now() - started, slept);
      const remaining = options.maxWaitMs - waited;
      if (remaining <= 0) throw new StoreOpenGaveUpError(attempt, waited, reason);
      // The last wait is cut short so the last attempt comes at the deadline.
      const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempt - 1), remaining);
      options.onRetry(attempt, reason, delay);
      await sleep(delay);
      slept += delay;
    }
  }
}

/** `text` with the password of `url` (as written and decoded) replaced by `***`. */
function withoutPassword(text: string, url: string | undefined): string {
  const password = url ? URL.parse(url)?.password : undefined;
  if (!password) return text;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // not percent-encoded: the password as written is all there is to hide
  }
  return text.split(password).join("***").split(decoded).join("***");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
