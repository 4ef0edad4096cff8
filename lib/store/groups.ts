/** Group records (CONTRACT §4 Group), stored under `["groups", id]`. */
import type { Group } from "../types.ts";
import { addAuditEntry, type AuditEntry } from "./audit.ts";
import { groupKey, groupsPrefix } from "./keys.ts";

/** A stored group and the versionstamp it was read at. */
export interface GroupEntry {
  group: Group;
  versionstamp: string;
}

/** The group with that id, or null. */
export async function getGroup(kv: Deno.Kv, groupId: string): Promise<Group | null> {
  return (await kv.get<Group>(groupKey(groupId))).value;
}

/** Every group with its versionstamp, in id order. */
export async function listGroupEntries(kv: Deno.Kv): Promise<GroupEntry[]> {
  const entries: GroupEntry[] = [];
  for await (const entry of kv.list<Group>({ prefix: groupsPrefix() })) {
    entries.push({ group: entry.value, versionstamp: entry.versionstamp });
  }
  return entries;
}

/** Every group, in id order. */
export async function listGroups(kv: Deno.Kv): Promise<Group[]> {
  return (await listGroupEntries(kv)).map((entry) => entry.group);
}

/** Creates or replaces a group. */
export async function putGroup(kv: Deno.Kv, group: Group): Promise<void> {
  await kv.set(groupKey(group.id), group);
}

/** A group to write, and the versionstamp its record must still have (null: must not exist). */
export interface GroupWrite {
  group: Group;
  expected: string | null;
}

/**
 * Writes every group only if none of their records changed since they were
 * read, together with the audit entries, in one atomic operation. False when
 * a record changed meanwhile (nothing is written then).
 */
export async function putGroupsIfUnchanged(
  kv: Deno.Kv,
  writes: readonly GroupWrite[],
  audits: readonly AuditEntry[],
): Promise<boolean> {
  const op = kv.atomic();
  for (const { group, expected } of writes) {
    op.check({ key: groupKey(group.id), versionstamp: expected }).set(groupKey(group.id), group);
  }
  for (const audit of audits) addAuditEntry(op, audit);
  return (await op.commit()).ok;
}
