/**
 * Reading many records at once. KV's `getMany` takes at most {@link GET_MANY_LIMIT} keys, so
 * every read of a varying number of keys goes through {@link getManyInBatches}, and every
 * "list an index, then read the records it names" loop through {@link readIndexed}.
 */
import type {
  Kv,
  KvEntry,
  KvEntryMaybe,
  KvKey,
  KvListOptions,
  KvListSelector,
} from "./backend/types.ts";

/** The most keys one `getMany` call accepts. */
export const GET_MANY_LIMIT = 10;

/** The entries at `keys`, in the same order, read in calls of at most {@link GET_MANY_LIMIT}. */
export async function getManyInBatches<T>(
  kv: Kv,
  keys: readonly KvKey[],
): Promise<KvEntryMaybe<T>[]> {
  const entries: KvEntryMaybe<T>[] = [];
  for (let start = 0; start < keys.length; start += GET_MANY_LIMIT) {
    const batch = keys.slice(start, start + GET_MANY_LIMIT);
    entries.push(...await kv.getMany<T[]>(batch));
  }
  return entries;
}

/**
 * The records an index names, in index order: lists the index entries under `selector` (each
 * value is an id), reads the record at `keyOf(id)` in batches of {@link GET_MANY_LIMIT}, and
 * yields those that exist. Lazy: stopping early stops listing the index.
 */
export async function* readIndexed<T>(
  kv: Kv,
  selector: KvListSelector,
  keyOf: (id: string) => KvKey,
  options: KvListOptions = {},
): AsyncGenerator<KvEntry<T>> {
  let ids: string[] = [];
  async function* read() {
    const entries = await kv.getMany<T[]>(ids.map(keyOf));
    ids = [];
    for (const entry of entries) {
      if (entry.versionstamp !== null) yield entry as KvEntry<T>;
    }
  }
  for await (const entry of kv.list<string>(selector, options)) {
    ids.push(entry.value);
    if (ids.length === GET_MANY_LIMIT) yield* read();
  }
  if (ids.length > 0) yield* read();
}

/** The values listed under `selector`. */
export async function* listValues<T>(
  kv: Kv,
  selector: KvListSelector,
  options: KvListOptions = {},
): AsyncGenerator<T> {
  for await (const entry of kv.list<T>(selector, options)) yield entry.value;
}

/** The values of `entries`. */
export async function* valuesOf<T>(entries: AsyncIterable<KvEntry<T>>): AsyncGenerator<T> {
  for await (const entry of entries) yield entry.value;
}
