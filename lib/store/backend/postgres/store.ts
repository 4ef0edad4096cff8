/**
 * The PostgreSQL backend: a {@link Kv} over the `kv_entries` table (./schema.ts), with Deno KV's
 * semantics for keys, lists, checks, counters, expiry, values and limits.
 *
 * Reads see only committed entries that have not expired; expired rows are also deleted in the
 * background every `purgeEveryMs`. Every operation that cannot reach the database fails with
 * `StoreUnavailableError` (../errors.ts).
 */
import { encodeKey } from "../key_codec.ts";
import { checkKeyCount, checkReadKey } from "../limits.ts";
import type {
  AtomicOperation,
  Kv,
  KvCommitResult,
  KvEntryMaybe,
  KvKey,
  KvListIterator,
  KvListOptions,
  KvListSelector,
} from "../types.ts";
import { PostgresAtomicOperation } from "./atomic.ts";
import { openPool, reachable, type Sql } from "./connection.ts";
import { PostgresListIterator } from "./list.ts";
import { entryOf, type EntryRow, keyHex } from "./rows.ts";
import { migrate } from "./schema.ts";
import { Watchers } from "./watch.ts";

/** How the PostgreSQL store connects. */
interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  /** Most connections in the pool (the listening connection of `watch` comes on top). */
  poolSize: number;
  /** How often expired entries are deleted (default one minute). */
  purgeEveryMs?: number;
}

/** Expired rows deleted by one purge statement. */
const PURGE_BATCH = 1000;

/** Connects, applies the migrations and returns the store; throws when unreachable. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresKv> {
  const sql = openPool(options.url, options.poolSize);
  try {
    await reachable(() => migrate(sql));
  } catch (error) {
    await sql.end({ timeout: 0 });
    throw error;
  }
  return new PostgresKv(sql, options.purgeEveryMs ?? 60_000);
}

/** A {@link Kv} on PostgreSQL. */
export class PostgresKv implements Kv {
  readonly #sql: Sql;
  readonly #watchers: Watchers;
  readonly #purgeTimer: ReturnType<typeof setInterval>;
  #closing: Promise<void> | undefined;

  constructor(sql: Sql, purgeEveryMs: number) {
    this.#sql = sql;
    this.#watchers = new Watchers(sql, (keys) => this.#readMany(keys));
    this.#purgeTimer = setInterval(() => this.purgeExpired().catch(() => {}), purgeEveryMs);
    Deno.unrefTimer(Number(this.#purgeTimer)); // never keeps the process alive
  }

  async get<T = unknown>(key: KvKey): Promise<KvEntryMaybe<T>> {
    const [entry] = await this.#readMany([key]);
    return entry as KvEntryMaybe<T>;
  }

  async getMany<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: KvKey }],
  ): Promise<{ [K in keyof T]: KvEntryMaybe<T[K]> }> {
    checkKeyCount(keys.length, "ranges");
    return await this.#readMany(keys as readonly KvKey[]) as {
      [K in keyof T]: KvEntryMaybe<T[K]>;
    };
  }

  list<T = unknown>(selector: KvListSelector, options?: KvListOptions): KvListIterator<T> {
    return new PostgresListIterator<T>(this.#sql, selector, options);
  }

  async set(key: KvKey, value: unknown, options?: { expireIn?: number }): Promise<KvCommitResult> {
    return await this.atomic().set(key, value, options).commit() as KvCommitResult;
  }

  async delete(key: KvKey): Promise<void> {
    await this.atomic().delete(key).commit();
  }

  atomic(): AtomicOperation {
    return new PostgresAtomicOperation(this.#sql);
  }

  watch<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: KvKey }],
  ): ReadableStream<{ [K in keyof T]: KvEntryMaybe<T[K]> }> {
    return this.#watchers.watch([...keys as readonly KvKey[]]) as ReadableStream<
      { [K in keyof T]: KvEntryMaybe<T[K]> }
    >;
  }

  /** Starts closing: watches end, the purge stops, the pool ends (see {@link closed}). */
  close(): void {
    this.#closing ??= (async () => {
      clearInterval(this.#purgeTimer);
      await this.#watchers.close();
      await this.#sql.end({ timeout: 5 });
    })();
  }

  /** Closes the store at the end of a `using` block. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** Resolves once {@link close} has ended every connection. */
  get closed(): Promise<void> {
    this.close();
    return this.#closing!;
  }

  /** Deletes expired entries (reads never see them anyway); returns how many. */
  async purgeExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await reachable(() =>
        this.#sql`DELETE FROM kv_entries WHERE ctid = ANY (ARRAY(
          SELECT ctid FROM kv_entries WHERE expires_at <= now() LIMIT ${PURGE_BATCH}
        ))`
      );
      total += result.count;
      if (result.count < PURGE_BATCH) return total;
    }
  }

  /** Reads keys in one statement (one snapshot), in the order given. */
  async #readMany(keys: readonly KvKey[]): Promise<KvEntryMaybe<unknown>[]> {
    const hexes = keys.map((key) => {
      const encoded = encodeKey(key);
      checkReadKey(encoded);
      return keyHex(encoded);
    });
    const rows = await reachable(() =>
      this.#sql<(EntryRow & { hex: string })[]>`SELECT * FROM kv_read(${hexes}::text[])`
    );
    const byHex = new Map(rows.map((row) => [row.hex, row]));
    return keys.map((key, i) => {
      const row = byHex.get(hexes[i]);
      return row ? entryOf(row, key) : { key, value: null, versionstamp: null };
    });
  }
}
