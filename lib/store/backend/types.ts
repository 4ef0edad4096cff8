/**
 * The storage interface the store depends on: the subset of Deno KV that `lib/store` uses.
 *
 * `Deno.Kv` satisfies {@link Kv} as it is (tests/store/store_backend_test.ts checks it at the type
 * level), so the Deno KV backend is the `Deno.Kv` object itself; the PostgreSQL backend
 * (`./postgres/`) implements the same contract with the same semantics. Queues are not part of
 * it: no backend but the embedded one has them.
 *
 * The aliases below let a module name these types without `Deno.`, so switching a module from
 * `Deno.Kv` to {@link Kv} is a mechanical rename.
 */

/** One part of a key: bytes, text, number, bigint or boolean (ordered in that type order). */
export type KvKeyPart = Deno.KvKeyPart;
/** A key: a non-empty list of parts. */
export type KvKey = Deno.KvKey;
/** An entry read from the store. */
export type KvEntry<T> = Deno.KvEntry<T>;
/** An entry read from the store, or the null entry of a key that has no value. */
export type KvEntryMaybe<T> = Deno.KvEntryMaybe<T>;
/** A condition of an atomic operation: the key's versionstamp, null when it must not exist. */
export type AtomicCheck = Deno.AtomicCheck;
/** The result of a commit that was applied. */
export type KvCommitResult = Deno.KvCommitResult;
/** The result of a commit whose checks failed (nothing was written). */
export type KvCommitError = Deno.KvCommitError;
/** Which keys a list reads: a prefix (never the prefix itself), optionally bounded, or a range. */
export type KvListSelector = Deno.KvListSelector;
/** Paging and direction of a list. */
export type KvListOptions = Deno.KvListOptions;
/** Read consistency; every backend here reads strongly, "eventual" is accepted. */
export type KvConsistencyLevel = Deno.KvConsistencyLevel;

/** The 64-bit unsigned counter value that `sum`, `min` and `max` work on. */
export const KvU64 = Deno.KvU64;
/** The 64-bit unsigned counter value that `sum`, `min` and `max` work on. */
export type KvU64 = Deno.KvU64;

/** The entries of a list, in key order (or reversed); `cursor` resumes after the last one read. */
export interface KvListIterator<T> extends AsyncIterableIterator<KvEntry<T>> {
  /** Where a later list with the same selector resumes; throws before the first entry is read. */
  readonly cursor: string;
  next(): Promise<IteratorResult<KvEntry<T>, undefined>>;
  [Symbol.asyncIterator](): AsyncIterableIterator<KvEntry<T>>;
}

/** Checks and mutations applied together or not at all. */
export interface AtomicOperation {
  /** Adds conditions: each key must still have the given versionstamp (null: must not exist). */
  check(...checks: AtomicCheck[]): this;
  /** Adds `n` to the KvU64 at `key` (0 when absent), wrapping around at 2^64. */
  sum(key: KvKey, n: bigint): this;
  /** Keeps the smaller of the KvU64 at `key` and `n` (`n` when absent). */
  min(key: KvKey, n: bigint): this;
  /** Keeps the larger of the KvU64 at `key` and `n` (`n` when absent). */
  max(key: KvKey, n: bigint): this;
  /** Sets `key` to `value`; with `expireIn` (ms) the entry disappears after that long. */
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): this;
  /** Deletes `key`. */
  delete(key: KvKey): this;
  /**
   * Optional, offered by backends that notify watchers across processes without a write
   * (PostgreSQL): when the commit applies, every watcher of `key` emits once more, though `key`
   * is not written (its entry and versionstamp stay as they are). It is no mutation and counts
   * against no limit. Where it is missing (Deno KV), callers write the key instead; the store
   * uses it for job wake-ups (lib/store/delivery/jobs.ts), so ingest commits share no hot row.
   */
  notify?(key: KvKey): this;
  /** Applies everything in one transaction: `{ ok: false }` when a check failed. */
  commit(): Promise<KvCommitResult | KvCommitError>;
}

/** A key-value store with Deno KV's semantics (see the module doc). */
export interface Kv {
  /** Reads one key. */
  get<T = unknown>(
    key: KvKey,
    options?: { consistency?: KvConsistencyLevel },
  ): Promise<KvEntryMaybe<T>>;
  /** Reads up to 10 keys at one point in time. */
  getMany<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: KvKey }],
    options?: { consistency?: KvConsistencyLevel },
  ): Promise<{ [K in keyof T]: KvEntryMaybe<T[K]> }>;
  /** Lists entries by prefix or range, in key order. */
  list<T = unknown>(selector: KvListSelector, options?: KvListOptions): KvListIterator<T>;
  /** Sets one key (an atomic operation of one mutation). */
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): Promise<KvCommitResult>;
  /** Deletes one key. */
  delete(key: KvKey): Promise<void>;
  /** Starts an atomic operation. */
  atomic(): AtomicOperation;
  /**
   * Watches up to 10 keys: emits their entries at once, then again whenever one of their
   * versionstamps changes.
   */
  watch<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: KvKey }],
    options?: { raw?: boolean },
  ): ReadableStream<{ [K in keyof T]: KvEntryMaybe<T[K]> }>;
  /** Closes the store: its connections, listeners and timers end. */
  close(): void;
  /**
   * Resolves once a closed store has let go of everything (PostgreSQL: the pool's connections
   * are closed); absent where `close` finishes at once (Deno KV).
   */
  readonly closed?: Promise<void>;
  /** The same as {@link close}, for `using` declarations. */
  [Symbol.dispose](): void;
}
