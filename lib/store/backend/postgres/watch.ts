/**
 * `watch(keys)` on PostgreSQL with LISTEN/NOTIFY.
 *
 * Every commit sends one notification on {@link NOTIFY_CHANNEL} carrying the tags of the keys it
 * wrote (or "*" when too many) and the marked tags of the keys it signalled (`notify`). One
 * listening connection per store receives them; a watcher whose keys' tags appear (or any, for
 * "*") reads its keys again and emits when a versionstamp changed, and a watcher of a signalled
 * key emits even when nothing changed. A watcher emits its keys' entries once at the start, as Deno KV does. When the
 * listening connection drops, the client reconnects and listens again; every watcher then reads
 * its keys again, so a change made while it was away is not missed.
 */
import { encodeKey } from "../key_codec.ts";
import { checkKeyCount, checkReadKey } from "../limits.ts";
import type { KvEntryMaybe, KvKey } from "../types.ts";
import type { Sql } from "./connection.ts";
import { ANY_KEY, keyHash, NOTIFY_CHANNEL, SIGNAL_MARK } from "./key_hash.ts";

/** Reads keys at one point in time (the store's getMany). */
type ReadKeys = (keys: KvKey[]) => Promise<KvEntryMaybe<unknown>[]>;

interface Watcher {
  keys: KvKey[];
  tags: Set<string>;
  seen: (string | null)[] | undefined;
  controller: ReadableStreamDefaultController<KvEntryMaybe<unknown>[]>;
  reading: boolean;
  again: boolean;
  /** Emit after the next read even when nothing changed (a key was signalled). */
  signalled: boolean;
}

/** The watchers of one store and its listening connection. */
export class Watchers {
  readonly #sql: Sql;
  readonly #read: ReadKeys;
  readonly #watchers = new Set<Watcher>();
  #listening: Promise<{ unlisten(): Promise<void> }> | undefined;
  #closed = false;

  constructor(sql: Sql, read: ReadKeys) {
    this.#sql = sql;
    this.#read = read;
  }

  /** A stream of the entries of `keys`: now, then after every change. */
  watch(keys: KvKey[]): ReadableStream<KvEntryMaybe<unknown>[]> {
    checkKeyCount(keys.length, "keys");
    const tags = new Set(keys.map((key) => {
      const encoded = encodeKey(key);
      checkReadKey(encoded);
      return keyHash(encoded).notify;
    }));
    let watcher: Watcher;
    return new ReadableStream({
      start: (controller) => {
        watcher = {
          keys,
          tags,
          seen: undefined,
          controller,
          reading: false,
          again: false,
          signalled: false,
        };
        this.#watchers.add(watcher);
        // The first read waits for the listening connection, so every change or signal after
        // the first emission is seen; when listening fails it still emits (listening retries).
        this.#listen().catch(() => {}).finally(() => this.#refresh(watcher));
      },
      cancel: () => {
        this.#watchers.delete(watcher);
      },
    });
  }

  /** Ends every watch and stops listening. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const watcher of this.#watchers) {
      try {
        watcher.controller.close();
      } catch {
        // already closed by its reader
      }
    }
    this.#watchers.clear();
    const listening = this.#listening;
    this.#listening = undefined;
    if (listening) await listening.then((meta) => meta.unlisten()).catch(() => {});
  }

  #listen(): Promise<unknown> {
    this.#listening ??= this.#sql.listen(
      NOTIFY_CHANNEL,
      (payload) => this.#notified(payload),
      () => this.#refreshAll(), // on every (re)connect: catch up on what happened meanwhile
    );
    this.#listening.catch(() => {
      this.#listening = undefined; // the next watch or notification tries again
    });
    return this.#listening;
  }

  #notified(payload: string): void {
    const tags = payload.split(",");
    const any = tags.includes(ANY_KEY);
    const signals = tags.filter((tag) => tag.startsWith(SIGNAL_MARK))
      .map((tag) => tag.slice(SIGNAL_MARK.length));
    for (const watcher of this.#watchers) {
      if (signals.some((tag) => watcher.tags.has(tag))) {
        watcher.signalled = true;
        this.#refresh(watcher);
      } else if (any || tags.some((tag) => watcher.tags.has(tag))) {
        this.#refresh(watcher);
      }
    }
  }

  #refreshAll(): void {
    for (const watcher of this.#watchers) this.#refresh(watcher);
  }

  /** Reads a watcher's keys (once at a time; again when asked meanwhile) and emits changes. */
  #refresh(watcher: Watcher): void {
    if (watcher.reading) {
      watcher.again = true;
      return;
    }
    watcher.reading = true;
    (async () => {
      do {
        watcher.again = false;
        const signalled = watcher.signalled;
        watcher.signalled = false;
        let entries: KvEntryMaybe<unknown>[];
        try {
          entries = await this.#read(watcher.keys);
        } catch {
          return; // unreachable: the reconnect (or next notification) reads again
        }
        if (this.#closed || !this.#watchers.has(watcher)) return;
        const stamps = entries.map((entry) => entry.versionstamp);
        const changed = !watcher.seen || stamps.some((stamp, i) => stamp !== watcher.seen![i]);
        if (changed || signalled) {
          watcher.seen = stamps;
          watcher.controller.enqueue(entries);
        }
      } while (watcher.again);
    })().finally(() => {
      watcher.reading = false;
    });
  }
}
