/** The checks endpoints repeat: the group exists (404) and the caller may act on it (403). */
import type { Kv } from "../store/backend/types.ts";
import { canEditRoutes, canReadGroup, isOwner, type Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { getGroup } from "../store/config/groups.ts";
import { type GroupEntry, readGroupEntry } from "../store/config/group_set.ts";
import type { Group, Role } from "../types.ts";

/** What an endpoint needs the caller to be in a group. */
export type Right = "read" | "edit" | "own";

const CHECKS: Record<Right, (principal: Principal, groupId: string) => boolean> = {
  read: canReadGroup,
  edit: canEditRoutes,
  own: isOwner,
};

const REFUSALS: Record<Right, string> = {
  read: "You are not a member of group",
  edit: "Only an owner or admin may change group",
  own: "Only an owner may manage group",
};

/** Refuses (403) unless the caller has `right` in the group. */
export function requireRight(principal: Principal, groupId: string, right: Right): void {
  if (!CHECKS[right](principal, groupId)) {
    throw new HttpError(403, `${REFUSALS[right]} ${groupId}`);
  }
}

/**
 * The groups a read covers: the requested group (403 unless readable), else
 * null (the whole instance) for a super admin, else every group of the caller.
 */
export function readScope(principal: Principal, groupId?: string): readonly string[] | null {
  if (groupId !== undefined) {
    requireRight(principal, groupId, "read");
    return [groupId];
  }
  return principal.superAdmin ? null : [...principal.roles.keys()];
}

/** The group, when it exists (404) and the caller has `right` in it (403). */
export async function requireGroup(
  kv: Kv,
  principal: Principal,
  groupId: string,
  right: Right,
): Promise<Group> {
  const group = await getGroup(kv, groupId);
  if (!group) throw new HttpError(404, `Unknown group ${groupId}`);
  requireRight(principal, groupId, right);
  return group;
}

/** The group's stored entry (with its internal id), as {@link requireGroup} checks it. */
export async function requireGroupEntry(
  kv: Kv,
  principal: Principal,
  groupId: string,
  right: Right,
): Promise<GroupEntry> {
  const { entry } = await readGroupEntry(kv, groupId);
  if (entry === null) throw new HttpError(404, `Unknown group ${groupId}`);
  requireRight(principal, groupId, right);
  return entry;
}

/** The caller as an audit actor. */
export function actorOf(principal: Principal): { userId: string; login: string } {
  return { userId: principal.userId, login: principal.login };
}

/** The caller's role in a group they can read: their member role, or owner for a super admin. */
export function effectiveRole(principal: Principal, groupId: string): Role {
  return principal.roles.get(groupId) ?? "owner";
}
