/**
 * One group at a time (`GET`/`PUT`/`DELETE /admin/api/groups/:id`, `POST /admin/api/groups`):
 * the same rights, limits and audit entries as the set replacement (`groups.ts`) and the same
 * store write (`applyGroupChanges`), without the hazard of dropping groups the client did not
 * list. Each group has its own `ETag`, a digest of its content, so a write elsewhere in the set
 * never makes it stale; `If-Match` makes a write to a group that changed since it was read
 * answer 409.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { sha256Hex } from "../crypto.ts";
import { HttpError } from "../fresh/mod.ts";
import { applyGroupChanges } from "../store/config/group_admin.ts";
import { type GroupEntry, readGroupSet } from "../store/config/group_set.ts";
import type { Group } from "../types.ts";
import { planGroupDelete, planGroupWrite, type PlannedChange, requireRoomFor } from "./groups.ts";
import { requireRight } from "./guards.ts";
import { Versioned } from "./versioned.ts";

const ATTEMPTS = 5;
const STALE = "The group changed since it was read; reload and try again";

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a < b ? -1 : 1));
}

/** A group's version: a digest of its content (object key order does not matter). */
export async function groupTag(group: Group): Promise<string> {
  return (await sha256Hex(JSON.stringify(group, sortedKeys))).slice(0, 32);
}

/** The answer of a write: `{ ok, id }`, versioned by the group's new tag. */
async function written(group: Group): Promise<Versioned<{ ok: true; id: string }>> {
  return new Versioned({ ok: true, id: group.id }, await groupTag(group));
}

/** The stored group (404 when there is none; 403 unless the caller may read it). */
function requireEntry(principal: Principal, entries: readonly GroupEntry[], groupId: string) {
  const entry = entries.find((candidate) => candidate.group.id === groupId);
  if (!entry) throw new HttpError(404, `Unknown group ${groupId}`);
  requireRight(principal, groupId, "read");
  return entry;
}

/** Refuses (409) when the client read another version of the group than `group`. */
async function requireVersion(group: Group, expected: string | null | undefined) {
  if (expected !== undefined && expected !== await groupTag(group)) {
    throw new HttpError(409, STALE);
  }
}

/**
 * Applies one planned change to the set it was planned on; `plan` runs again on a fresh read
 * when another write landed in between (its checks then see the new state).
 */
async function applyPlanned(
  kv: Kv,
  plan: (entries: readonly GroupEntry[]) => Promise<PlannedChange | null>,
): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const set = await readGroupSet(kv);
    const planned = await plan(set.entries);
    if (planned === null) return;
    if (await applyGroupChanges(kv, set, [planned.change], [planned.audit])) return;
  }
  throw new HttpError(409, "The groups kept changing while this was written; try again");
}

/** `GET /admin/api/groups/:id`: the group, with its `ETag`. */
export async function readGroup(
  kv: Kv,
  principal: Principal,
  groupId: string,
): Promise<Versioned<Group>> {
  const { entries } = await readGroupSet(kv);
  const { group } = requireEntry(principal, entries, groupId);
  return new Versioned(group, await groupTag(group));
}

/**
 * `POST /admin/api/groups`: creates one group (super admin; 409 when the id is taken, 400 at
 * the instance limit). Anything left under the id by an earlier group is cleared first.
 */
export async function createGroup(
  kv: Kv,
  principal: Principal,
  group: Group,
): Promise<Versioned<{ ok: true; id: string }>> {
  if (!principal.superAdmin) {
    throw new HttpError(403, `Only a super admin may create groups (${group.id})`);
  }
  await applyPlanned(kv, (entries) => {
    if (entries.some((entry) => entry.group.id === group.id)) {
      throw new HttpError(409, `id: group ${group.id} already exists`);
    }
    requireRoomFor(entries.length + 1);
    return Promise.resolve(planGroupWrite(principal, undefined, group, "group"));
  });
  return await written(group);
}

/**
 * `PUT /admin/api/groups/:id`: replaces that group only (owner; `installationId` and `owners`
 * only by a super admin). The body's id must be the path's: renaming is its own endpoint.
 */
export async function replaceGroup(
  kv: Kv,
  principal: Principal,
  groupId: string,
  group: Group,
  expected: string | null | undefined,
): Promise<Versioned<{ ok: true; id: string }>> {
  if (group.id !== groupId) {
    throw new HttpError(
      400,
      `id: must be the group id of the path (${groupId}); PUT /admin/api/groups/${groupId}/rename renames a group`,
    );
  }
  await applyPlanned(kv, async (entries) => {
    const entry = requireEntry(principal, entries, groupId);
    requireRight(principal, groupId, "own");
    await requireVersion(entry.group, expected);
    return planGroupWrite(principal, entry, group, "group");
  });
  return await written(group);
}

/**
 * `DELETE /admin/api/groups/:id`: deletes the group (owner) with its routes, fragments,
 * allowed targets, webhook secret and invites.
 */
export async function deleteGroup(
  kv: Kv,
  principal: Principal,
  groupId: string,
  expected: string | null | undefined,
): Promise<{ ok: true }> {
  await applyPlanned(kv, async (entries) => {
    const entry = requireEntry(principal, entries, groupId);
    requireRight(principal, groupId, "own");
    await requireVersion(entry.group, expected);
    return planGroupDelete(principal, entry);
  });
  return { ok: true };
}
