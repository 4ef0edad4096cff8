/**
 * How a group's allowlist is laid out in KV. A list may hold every target the route limits let
 * a group name (`MAX_ALLOWED_TARGETS`), more than one KV value can carry, so it is cut into
 * pages of at most {@link PAGE_BYTES}: the first page is the record at
 * `["allowed_targets", groupId]` (with `pages`, the number of pages, when there is more than
 * one), the others at `["allowed_targets", groupId, n]`. Every change rewrites the first page,
 * so its versionstamp is the version of the whole list (what delivery and `If-Match` check),
 * and the pages are always written and read together: a reader never sees two versions mixed.
 */
import type { AtomicOperation, Kv, KvKey } from "../backend/types.ts";
import { utf8 } from "../../encoding.ts";
import type { AllowedTarget, AllowedTargetsRecord } from "./allowed_targets.ts";
import { allowedTargetsKey, allowedTargetsPageKey } from "../keys.ts";

/** Most bytes of targets (as JSON) on one page; a KV value holds at most 64 KiB. */
const PAGE_BYTES = 48_000;
/** Most pages of one list (a read of all of them is one `getMany`, at most 10 keys). */
const MAX_ALLOWLIST_PAGES = 10;

/** A further page of a list. */
interface AllowlistPage {
  targets: AllowedTarget[];
}

/** A group's whole list, with the first page's versionstamp (null when none was stored). */
export interface StoredAllowlist {
  targets: AllowedTarget[];
  versionstamp: string | null;
}

/** `targets` cut into pages of at most {@link PAGE_BYTES}; throws past the page limit. */
function paginate(targets: readonly AllowedTarget[]): AllowedTarget[][] {
  const pages: AllowedTarget[][] = [[]];
  let bytes = 0;
  for (const entry of targets) {
    const size = utf8(JSON.stringify(entry)).length;
    if (bytes + size > PAGE_BYTES && pages.at(-1)!.length > 0) {
      pages.push([]);
      bytes = 0;
    }
    pages.at(-1)!.push(entry);
    bytes += size;
  }
  if (pages.length > MAX_ALLOWLIST_PAGES) {
    throw new Error(`An allowlist of ${targets.length} targets does not fit its pages`);
  }
  return pages;
}

/** The keys of pages 1 … count-1. */
function furtherPageKeys(groupId: string, count: number): KvKey[] {
  return Array.from(
    { length: Math.max(0, count - 1) },
    (_, n) => allowedTargetsPageKey(groupId, n + 1),
  );
}

/** Reads a group's whole list, its pages in one consistent read. */
export async function readAllowlist(kv: Kv, groupId: string): Promise<StoredAllowlist> {
  let pages = 1;
  for (let attempt = 0; attempt < 5; attempt++) {
    const [first, ...rest] = await kv.getMany<[AllowedTargetsRecord, ...AllowlistPage[]]>([
      allowedTargetsKey(groupId),
      ...furtherPageKeys(groupId, pages),
    ]);
    const stored = Math.min(Math.max(1, Math.trunc(first.value?.pages ?? 1)), MAX_ALLOWLIST_PAGES);
    if (stored === pages) {
      const further = rest.flatMap((page) => (page.value as AllowlistPage | null)?.targets ?? []);
      return {
        targets: [...first.value?.targets ?? [], ...further],
        versionstamp: first.versionstamp,
      };
    }
    pages = stored;
  }
  throw new Error(`The allowlist of group ${groupId} kept changing while read`);
}

/**
 * Adds the writes of a group's new list to `op`: its pages, and the deletion of page slots it
 * no longer uses (at most {@link MAX_ALLOWLIST_PAGES} mutations in all).
 */
export function addAllowlistWrite(
  op: AtomicOperation,
  groupId: string,
  targets: readonly AllowedTarget[],
  updatedAt: number,
): AtomicOperation {
  const [first, ...further] = paginate(targets);
  const record: AllowedTargetsRecord = {
    targets: first,
    updatedAt,
    ...(further.length > 0 ? { pages: further.length + 1 } : {}),
  };
  op.set(allowedTargetsKey(groupId), record);
  further.forEach((page, n) => op.set(allowedTargetsPageKey(groupId, n + 1), { targets: page }));
  for (const key of furtherPageKeys(groupId, MAX_ALLOWLIST_PAGES).slice(further.length)) {
    op.delete(key);
  }
  return op;
}

/** Adds the deletion of a group's whole list to `op` (every page slot). */
export function addAllowlistDelete(
  op: AtomicOperation,
  groupId: string,
): AtomicOperation {
  op.delete(allowedTargetsKey(groupId));
  for (const key of furtherPageKeys(groupId, MAX_ALLOWLIST_PAGES)) op.delete(key);
  return op;
}

/** The keys the lists of `groupIds` occupy now, for clearing many groups in one write. */
export async function storedAllowlistKeys(
  kv: Kv,
  groupIds: Iterable<string>,
): Promise<KvKey[]> {
  const keys: KvKey[] = [];
  for (const groupId of groupIds) {
    const first = await kv.get(allowedTargetsKey(groupId));
    if (first.versionstamp !== null) keys.push(first.key);
    for await (const page of kv.list({ prefix: allowedTargetsKey(groupId) })) keys.push(page.key);
  }
  return keys;
}
