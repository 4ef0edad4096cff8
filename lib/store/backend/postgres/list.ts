/**
 * Lists over `kv_entries`: each batch is one index range scan (`key >= lower AND key < upper`,
 * in key order or reversed), the next batch starting after the last key read.
 */
import { cursorAfter, type KeyRange, rangeOf } from "../key_range.ts";
import { MAX_LIST_BATCH } from "../limits.ts";
import type { KvEntry, KvListIterator, KvListOptions, KvListSelector } from "../types.ts";
import { reachable, type Sql } from "./connection.ts";
import { entryOf, type EntryRow } from "./rows.ts";

/** Entries read when neither `limit` nor `batchSize` says otherwise. */
const DEFAULT_BATCH = 100;

/** The iterator of one list. */
export class PostgresListIterator<T> implements KvListIterator<T> {
  readonly #sql: Sql;
  readonly #range: KeyRange;
  readonly #reverse: boolean;
  readonly #batchSize: number;
  #remaining: number;
  #buffered: { entry: KvEntry<T>; key: Uint8Array }[] = [];
  #exhausted = false;
  #finished = false;
  #lastKey: Uint8Array | undefined;

  constructor(sql: Sql, selector: KvListSelector, options: KvListOptions = {}) {
    const { limit, batchSize, reverse = false, cursor } = options;
    if (limit !== undefined && (!Number.isInteger(limit) || limit <= 0)) {
      throw new Error(`Limit must be a positive integer: received ${limit}`);
    }
    if (batchSize !== undefined && batchSize > MAX_LIST_BATCH) {
      throw new TypeError(`Too many entries (max ${MAX_LIST_BATCH})`);
    }
    this.#sql = sql;
    this.#range = rangeOf(selector, cursor, reverse);
    this.#reverse = reverse;
    this.#remaining = limit ?? Infinity;
    this.#batchSize = Math.max(1, batchSize ?? Math.min(limit ?? DEFAULT_BATCH, DEFAULT_BATCH));
  }

  /**
   * As Deno KV's: after the last entry read; "" once the list ran out of entries (not merely
   * reached its limit); throws before the first `next()`.
   */
  get cursor(): string {
    if (this.#finished) return "";
    if (!this.#lastKey) throw new Error("Cannot get cursor before first iteration");
    return cursorAfter(this.#range, this.#lastKey);
  }

  async next(): Promise<IteratorResult<KvEntry<T>, undefined>> {
    if (this.#remaining <= 0) return { done: true, value: undefined };
    if (this.#buffered.length === 0 && !this.#exhausted) await this.#fetch();
    const next = this.#buffered.shift();
    if (!next) {
      this.#finished = true;
      return { done: true, value: undefined };
    }
    this.#remaining--;
    this.#lastKey = next.key;
    return { done: false, value: next.entry };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<KvEntry<T>> {
    return this;
  }

  async #fetch(): Promise<void> {
    const count = Math.min(this.#batchSize, this.#remaining);
    const after = this.#lastKey;
    let lower = this.#range.lower;
    let upper = this.#range.upper;
    if (after && this.#reverse) upper = after;
    else if (after) lower = Uint8Array.of(...after, 0);
    const sql = this.#sql;
    const rows = await reachable(() =>
      this.#reverse
        ? sql<EntryRow[]>`SELECT key, kind, value, version FROM kv_entries
            WHERE key >= ${lower} AND key < ${upper} AND (expires_at IS NULL OR expires_at > now())
            ORDER BY key DESC LIMIT ${count}`
        : sql<EntryRow[]>`SELECT key, kind, value, version FROM kv_entries
            WHERE key >= ${lower} AND key < ${upper} AND (expires_at IS NULL OR expires_at > now())
            ORDER BY key LIMIT ${count}`
    );
    if (rows.length < count) this.#exhausted = true;
    for (const row of rows) this.#buffered.push({ entry: entryOf<T>(row), key: row.key });
  }
}
