/**
 * The group set, read and written as one versioned whole.
 *
 * Group records live in a set, `["group_sets", setId, groupId]` → `{ group, internalId }`,
 * named by the pointer `["groups_pointer"]`. Every group write sets the pointer in the same
 * atomic operation, checked against the versionstamp it was read at, so the pointer's
 * versionstamp is the version of the whole set and one check guards any number of groups. A
 * change to a few groups writes within the current set; a replacement of many groups writes a
 * new set aside (in as many operations as KV limits need) and switches the pointer to it in one
 * operation, so readers see the old set or the new one, never a mix.
 *
 * Every group has an internal id, given when the group is created and kept through renames.
 * History (send logs, the audit index, delivery counters) is keyed by it, never by the reusable
 * group id: a group created or renamed to an id another group had before starts with no history,
 * and a renamed group keeps its own. Groups stored before internal ids existed keep their group
 * id as internal id, which is the key their history was written under; new internal ids start
 * with `#`, which no group id contains, so the two never collide.
 */
import type { AtomicOperation, Kv, KvKey } from "../backend/types.ts";
import { decodeUlidTime, ulid } from "../../ulid.ts";
import type { Group } from "../../types.ts";
import {
  groupSetEntryKey,
  groupSetPendingKey,
  groupSetPrefix,
  groupSetsPendingPrefix,
  groupsPointerKey,
  legacyGroupsPrefix,
} from "../keys.ts";

/** The value at `["groups_pointer"]`. */
interface GroupsPointer {
  setId: string;
  /** Unix milliseconds. */
  updatedAt: number;
}

/** The value of one group set entry. */
export interface GroupRecord {
  group: Group;
  /** Never changes and is never given to another group (module comment). */
  internalId: string;
}

/** A stored group with its internal id and the versionstamp it was read at. */
export interface GroupEntry {
  group: Group;
  internalId: string;
  versionstamp: string;
}

/** Which set was current when it was read, and its version (both null: nothing stored yet). */
interface GroupSetVersion {
  setId: string | null;
  /** The pointer's versionstamp: changes with every group write. */
  version: string | null;
}

/** The whole group set as read, in id order. */
export interface GroupSet extends GroupSetVersion {
  entries: GroupEntry[];
}

/** A set still pending after this long was left by a crashed replacement. */
const ORPHAN_GROUP_SET_AGE_MS = 10 * 60 * 1000;

const READ_ATTEMPTS = 10;
const WRITE_BATCH_ENTRIES = 100;
const WRITE_BATCH_BYTES = 400_000;
const encoder = new TextEncoder();

/** A fresh internal id: `#` and a ulid. */
export function newInternalId(): string {
  return `#${ulid()}`;
}

/** Group id → internal id, for every group of the set. */
export function internalIdsOf(set: GroupSet): Map<string, string> {
  return new Map(set.entries.map((entry) => [entry.group.id, entry.internalId]));
}

async function commitOrThrow(op: AtomicOperation, what: string): Promise<void> {
  if (!(await op.commit()).ok) throw new Error(`${what} failed`);
}

/**
 * Moves groups stored before group sets into a first set (their group id as internal id).
 * False when there were none.
 */
async function migrateLegacyGroups(kv: Kv): Promise<boolean> {
  const records: GroupRecord[] = [];
  const legacyKeys: KvKey[] = [];
  for await (const entry of kv.list<Group>({ prefix: legacyGroupsPrefix() })) {
    records.push({ group: entry.value, internalId: entry.value.id });
    legacyKeys.push(entry.key);
  }
  if (records.length === 0) return false;
  if (await switchGroupSet(kv, null, records)) {
    for (let start = 0; start < legacyKeys.length; start += WRITE_BATCH_ENTRIES) {
      const op = kv.atomic();
      for (const key of legacyKeys.slice(start, start + WRITE_BATCH_ENTRIES)) op.delete(key);
      await commitOrThrow(op, "removing migrated group records");
    }
  }
  return true;
}

/** Reads the whole group set through the pointer: one consistent version, in id order. */
export async function readGroupSet(kv: Kv): Promise<GroupSet> {
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    const pointer = await kv.get<GroupsPointer>(groupsPointerKey());
    if (pointer.value === null) {
      if (await migrateLegacyGroups(kv)) continue;
      return { setId: null, version: null, entries: [] };
    }
    const entries: GroupEntry[] = [];
    for await (
      const entry of kv.list<GroupRecord>({ prefix: groupSetPrefix(pointer.value.setId) })
    ) {
      const { group, internalId } = entry.value;
      entries.push({ group, internalId, versionstamp: entry.versionstamp });
    }
    const after = await kv.get(groupsPointerKey());
    if (after.versionstamp === pointer.versionstamp) {
      return { setId: pointer.value.setId, version: pointer.versionstamp, entries };
    }
  }
  throw new Error("groups kept changing while being read");
}

const lastReadSets = new WeakMap<Kv, GroupSet>();

/**
 * The whole group set as {@link readGroupSet} gives it, reusing the set this process read last
 * from `kv` while the pointer's versionstamp (the version of the whole set) is unchanged: one
 * read instead of a list of every group, for callers that read it often (the fan-out, once per
 * job). The entries are shared between callers and must not be changed.
 */
export async function readGroupSetCached(kv: Kv): Promise<GroupSet> {
  const last = lastReadSets.get(kv);
  if (last) {
    const pointer = await kv.get(groupsPointerKey());
    if (pointer.versionstamp === last.version) return last;
  }
  const read = await readGroupSet(kv);
  lastReadSets.set(kv, read);
  return read;
}

/** One group of the current set (null when there is none with that id) and the set's version. */
export async function readGroupEntry(
  kv: Kv,
  groupId: string,
): Promise<GroupSetVersion & { entry: GroupEntry | null }> {
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    const pointer = await kv.get<GroupsPointer>(groupsPointerKey());
    if (pointer.value === null) {
      if (await migrateLegacyGroups(kv)) continue;
      return { setId: null, version: null, entry: null };
    }
    const { setId } = pointer.value;
    const [again, stored] = await kv.getMany<[GroupsPointer, GroupRecord]>([
      groupsPointerKey(),
      groupSetEntryKey(setId, groupId),
    ]);
    if (again.versionstamp !== pointer.versionstamp) continue;
    const entry = stored.value === null
      ? null
      : { ...stored.value, versionstamp: stored.versionstamp! };
    return { setId, version: pointer.versionstamp, entry };
  }
  throw new Error("groups kept changing while being read");
}

/** Puts and removes groups within the current set, as part of one atomic operation. */
interface GroupSetWriter {
  put(record: GroupRecord): void;
  remove(groupId: string): void;
}

/**
 * Starts a write within the set read as `read`: adds to `op` the pointer check and update
 * every group write makes (the commit fails if any group changed since `read`).
 */
export function groupSetWriter(op: AtomicOperation, read: GroupSetVersion): GroupSetWriter {
  const setId = read.setId ?? ulid();
  op.check({ key: groupsPointerKey(), versionstamp: read.version })
    .set(groupsPointerKey(), { setId, updatedAt: Date.now() } satisfies GroupsPointer);
  return {
    put: (record) => op.set(groupSetEntryKey(setId, record.group.id), record),
    remove: (groupId) => op.delete(groupSetEntryKey(setId, groupId)),
  };
}

async function writeSetAside(kv: Kv, setId: string, records: readonly GroupRecord[]) {
  let op = kv.atomic().set(groupSetPendingKey(setId), Date.now());
  let entries = 1;
  let bytes = 0;
  for (const record of records) {
    const size = encoder.encode(JSON.stringify(record)).length;
    if (entries === WRITE_BATCH_ENTRIES || bytes + size > WRITE_BATCH_BYTES) {
      await commitOrThrow(op, "writing a group set");
      op = kv.atomic();
      entries = 0;
      bytes = 0;
    }
    op.set(groupSetEntryKey(setId, record.group.id), record);
    entries++;
    bytes += size;
  }
  await commitOrThrow(op, "writing a group set");
}

async function deleteSet(kv: Kv, setId: string): Promise<void> {
  let op = kv.atomic().delete(groupSetPendingKey(setId));
  let batch = 1;
  for await (const entry of kv.list({ prefix: groupSetPrefix(setId) })) {
    if (batch === WRITE_BATCH_ENTRIES) {
      await commitOrThrow(op, "deleting a group set");
      op = kv.atomic();
      batch = 0;
    }
    op.delete(entry.key);
    batch++;
  }
  await commitOrThrow(op, "deleting a group set");
}

/** Deletes group sets left pending by replacements that crashed before switching. */
async function sweepOrphanGroupSets(kv: Kv, now = Date.now()): Promise<number> {
  let swept = 0;
  for await (const entry of kv.list({ prefix: groupSetsPendingPrefix() })) {
    const setId = String(entry.key[1]);
    if (now - decodeUlidTime(setId) > ORPHAN_GROUP_SET_AGE_MS) {
      await deleteSet(kv, setId);
      swept++;
    }
  }
  return swept;
}

/**
 * Replaces the whole set with `records`, if the set is still at `expected` (null: nothing
 * stored yet): writes the new set aside, then switches the pointer in one atomic operation to
 * which `alongside` adds its own writes (audit entries), then deletes the old set. Answers the
 * new version, or null when the set changed meanwhile (nothing is switched then).
 */
export async function switchGroupSet(
  kv: Kv,
  expected: string | null,
  records: readonly GroupRecord[],
  alongside?: (op: AtomicOperation) => void,
): Promise<string | null> {
  const setId = ulid();
  await writeSetAside(kv, setId, records);
  const current = await kv.get<GroupsPointer>(groupsPointerKey());
  if (current.versionstamp === expected) {
    const op = kv.atomic()
      .check({ key: groupsPointerKey(), versionstamp: expected })
      .set(groupsPointerKey(), { setId, updatedAt: Date.now() } satisfies GroupsPointer)
      .delete(groupSetPendingKey(setId));
    alongside?.(op);
    const result = await op.commit();
    if (result.ok) {
      if (current.value) await deleteSet(kv, current.value.setId);
      await sweepOrphanGroupSets(kv);
      return result.versionstamp;
    }
  }
  await deleteSet(kv, setId);
  return null;
}
