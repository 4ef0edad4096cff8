/**
 * Listing, replacing and renaming groups (spec payload rule 2). A super admin replaces the
 * whole set: groups left out are deleted with their routes, fragments, secret and invites. An
 * owner replaces the groups they own: they may change or delete those, must leave every other
 * group as stored, and may not create groups. Only a super admin may set or change a group's
 * `installationId` or `owners`, so no tenant can bind another tenant's installation or
 * repositories. The list's `ETag` covers every group record; `If-Match` makes a stale
 * replacement answer 409, and without it the last writer wins.
 */
import type { Kv } from "../store/backend/types.ts";
import { isOwner, type Principal, readableGroups } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { MAX_GROUP_BYTES, MAX_GROUPS } from "../limits.ts";
import { type AuditEntry, newAuditEntry } from "../store/telemetry/audit.ts";
import { applyGroupChanges, type GroupChange, renameGroup } from "../store/config/group_admin.ts";
import { type GroupEntry, readGroupSet } from "../store/config/group_set.ts";
import type { Group, Role } from "../types.ts";
import { actorOf, effectiveRole, requireGroup, requireRight } from "./guards.ts";
import { sameJson } from "../same_json.ts";
import { Versioned } from "./versioned.ts";

const ATTEMPTS = 5;
const BOUND_FIELDS = ["installationId", "owners"] as const;
const encoder = new TextEncoder();

/**
 * The groups the caller may read, their role in each (an object without prototype, keyed by
 * group id), and the version of the whole group set as `ETag`.
 */
export async function listVisibleGroups(
  kv: Kv,
  principal: Principal,
): Promise<Versioned<{ groups: Group[]; roles: Record<string, Role> }>> {
  const set = await readGroupSet(kv);
  const groups = readableGroups(principal, set.entries.map((entry) => entry.group));
  const roles: Record<string, Role> = Object.create(null);
  for (const group of groups) roles[group.id] = effectiveRole(principal, group.id);
  return new Versioned({ groups, roles }, set.version);
}

function changedFields(before: Group, after: Group): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof Group>;
  return [...keys].filter((key) => !sameJson(before[key], after[key])).sort();
}

function requireUnique(groups: readonly Group[]) {
  const seen = new Set<string>();
  groups.forEach((group, index) => {
    if (seen.has(group.id)) {
      throw new HttpError(400, `groups[${index}].id: duplicate group id "${group.id}"`);
    }
    seen.add(group.id);
  });
}

/** A planned change to one group with its audit entry. */
export interface PlannedChange {
  change: GroupChange;
  audit: AuditEntry;
}

/** Refuses (403) a change to `installationId` or `owners` by anyone but a super admin. */
function requireBindingRight(principal: Principal, group: Group, before?: Group): void {
  const touched = BOUND_FIELDS.filter((field) => !sameJson(group[field], before?.[field]));
  if (touched.length > 0 && !principal.superAdmin) {
    throw new HttpError(
      403,
      `Only a super admin may set ${touched.join(" or ")} (group ${group.id})`,
    );
  }
}

/**
 * Writing `group` over its stored `entry` (none: creating it), refused (403) where the caller
 * lacks the right and (400) when it is too large, `where` naming it in the message. Null when
 * the group is stored exactly so already.
 */
export function planGroupWrite(
  principal: Principal,
  entry: GroupEntry | undefined,
  group: Group,
  where: string,
  at: number = Date.now(),
): PlannedChange | null {
  if (entry && sameJson(group, entry.group)) return null;
  if (encoder.encode(JSON.stringify(group)).length > MAX_GROUP_BYTES) {
    throw new HttpError(400, `${where}: at most ${MAX_GROUP_BYTES} bytes of JSON`);
  }
  const actor = actorOf(principal);
  if (!entry) {
    if (!principal.superAdmin) {
      throw new HttpError(403, `Only a super admin may create groups (${group.id})`);
    }
    return {
      change: { kind: "create", group },
      audit: newAuditEntry({
        actor,
        action: "group.create",
        groupId: group.id,
        detail: { name: group.name },
      }, at),
    };
  }
  requireRight(principal, group.id, "own");
  requireBindingRight(principal, group, entry.group);
  return {
    change: { kind: "update", group, expected: entry.versionstamp },
    audit: newAuditEntry({
      actor,
      action: "group.update",
      groupId: group.id,
      detail: { fields: changedFields(entry.group, group) },
    }, at),
  };
}

/** Deleting a stored group (the caller's right is checked by the caller). */
export function planGroupDelete(
  principal: Principal,
  entry: GroupEntry,
  at: number = Date.now(),
): PlannedChange {
  const { group, versionstamp } = entry;
  return {
    change: { kind: "delete", groupId: group.id, expected: versionstamp },
    audit: newAuditEntry({
      actor: actorOf(principal),
      action: "group.delete",
      groupId: group.id,
      detail: { name: group.name },
    }, at),
  };
}

/** Refuses (400) a set of `count` groups above the instance limit. */
export function requireRoomFor(count: number): void {
  if (count > MAX_GROUPS) {
    throw new HttpError(400, `groups: at most ${MAX_GROUPS} groups per instance`);
  }
}

/** The changes a submission makes, refused (403) where the caller lacks the right. */
function planChanges(
  principal: Principal,
  stored: readonly GroupEntry[],
  submitted: readonly Group[],
): { changes: GroupChange[]; audits: AuditEntry[] } {
  const byId = new Map(stored.map((entry) => [entry.group.id, entry]));
  const planned: PlannedChange[] = [];
  const at = Date.now();
  for (const [index, group] of submitted.entries()) {
    const write = planGroupWrite(principal, byId.get(group.id), group, `groups[${index}]`, at);
    if (write) planned.push(write);
  }
  const kept = new Set(submitted.map((group) => group.id));
  for (const entry of stored) {
    if (kept.has(entry.group.id) || !isOwner(principal, entry.group.id)) continue;
    planned.push(planGroupDelete(principal, entry, at));
  }
  return {
    changes: planned.map((plan) => plan.change),
    audits: planned.map((plan) => plan.audit),
  };
}

/**
 * `PUT /admin/api/groups`: replaces the groups the caller may replace (module comment). The
 * instance limit applies to the resulting set, however many groups the replacement changes; the
 * whole replacement lands at once or not at all.
 */
export async function replaceGroups(
  kv: Kv,
  principal: Principal,
  submitted: Group[],
  expected: string | null | undefined,
): Promise<{ ok: true; count: number }> {
  if (!principal.superAdmin && ![...principal.roles.values()].includes("owner")) {
    throw new HttpError(403, "Only a super admin or a group owner may replace groups");
  }
  requireUnique(submitted);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const set = await readGroupSet(kv);
    if (expected !== undefined && expected !== set.version) {
      throw new HttpError(409, "The groups changed since they were read; reload and try again");
    }
    const { changes, audits } = planChanges(principal, set.entries, submitted);
    const created = changes.filter((change) => change.kind === "create").length;
    const deleted = changes.filter((change) => change.kind === "delete").length;
    requireRoomFor(set.entries.length + created - deleted);
    if (changes.length === 0 || await applyGroupChanges(kv, set, changes, audits)) {
      return { ok: true, count: submitted.length };
    }
    if (expected !== undefined) break;
  }
  throw new HttpError(409, "The groups changed since they were read; reload and try again");
}

/** `PUT /admin/api/groups/:id/rename`: everything of the group follows the new id. */
export async function renameGroupFor(
  kv: Kv,
  principal: Principal,
  groupId: string,
  body: { newId: string; name?: string },
): Promise<{ ok: true; id: string }> {
  await requireGroup(kv, principal, groupId, "own");
  if (body.newId === groupId) throw new HttpError(400, "newId: must differ from the current id");
  const result = await renameGroup(
    kv,
    { from: groupId, to: body.newId, name: body.name },
    (group, routes) =>
      newAuditEntry({
        actor: actorOf(principal),
        action: "group.rename",
        groupId: group.id,
        target: `group:${groupId}`,
        detail: { from: groupId, to: group.id, routes },
      }, Date.now()),
  );
  if (result.ok) return { ok: true, id: result.group.id };
  switch (result.reason) {
    case "missing":
      throw new HttpError(404, `Unknown group ${groupId}`);
    case "exists":
      throw new HttpError(409, `newId: group ${body.newId} already exists`);
    case "too_many":
      throw new HttpError(
        400,
        `routes: the instance holds more than ${result.limit} routes; remove some before renaming`,
      );
    case "too_large":
      throw new HttpError(
        400,
        `newId: route "${result.routeId}" would be too large to store under this id`,
      );
    case "conflict":
      throw new HttpError(409, "The group changed while it was renamed; try again");
  }
}
