/** Group records, read and written through the group set (`group_set.ts`). */
import type { Kv } from "../backend/types.ts";
import type { Group } from "../../types.ts";
import { addAuditEntry, type AuditEntry } from "../telemetry/audit.ts";
import {
  type GroupEntry,
  groupSetWriter,
  internalIdsOf,
  newInternalId,
  readGroupEntry,
  readGroupSet,
} from "./group_set.ts";

export type { GroupEntry } from "./group_set.ts";

const ATTEMPTS = 10;

/** The group with that id, or null. */
export async function getGroup(kv: Kv, groupId: string): Promise<Group | null> {
  return (await readGroupEntry(kv, groupId)).entry?.group ?? null;
}

/** Every group with its internal id and versionstamp, in id order. */
export async function listGroupEntries(kv: Kv): Promise<GroupEntry[]> {
  return (await readGroupSet(kv)).entries;
}

/** Every group, in id order. */
export async function listGroups(kv: Kv): Promise<Group[]> {
  return (await listGroupEntries(kv)).map((entry) => entry.group);
}

/** Creates a group (with a fresh internal id) or replaces one (keeping its internal id). */
export async function putGroup(kv: Kv, group: Group): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const read = await readGroupEntry(kv, group.id);
    const op = kv.atomic();
    groupSetWriter(op, read).put({ group, internalId: read.entry?.internalId ?? newInternalId() });
    if ((await op.commit()).ok) return;
  }
  throw new Error(`group ${group.id} kept changing while it was written`);
}

/** A group to write, and the versionstamp its record must still have (null: must not exist). */
export interface GroupWrite {
  group: Group;
  expected: string | null;
}

/**
 * Writes every group only if none of their records changed since they were
 * read, together with the audit entries, in one atomic operation. A created
 * group gets a fresh internal id; an updated one keeps its own. False when a
 * group changed meanwhile (nothing is written then).
 */
export async function putGroupsIfUnchanged(
  kv: Kv,
  writes: readonly GroupWrite[],
  audits: readonly AuditEntry[],
): Promise<boolean> {
  const set = await readGroupSet(kv);
  const stored = new Map(set.entries.map((entry) => [entry.group.id, entry]));
  const internalIds = internalIdsOf(set);
  const op = kv.atomic();
  const writer = groupSetWriter(op, set);
  for (const { group, expected } of writes) {
    const current = stored.get(group.id);
    if ((current?.versionstamp ?? null) !== expected) return false;
    const internalId = current?.internalId ?? newInternalId();
    internalIds.set(group.id, internalId);
    writer.put({ group, internalId });
  }
  for (const audit of audits) addAuditEntry(op, audit, internalIds);
  return (await op.commit()).ok;
}
