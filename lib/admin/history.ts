/**
 * Who may see and act on history (send logs, audit entries, delivery counters). History is
 * keyed by a group's internal id (`lib/store/config/group_set.ts`), so it belongs to the group that has
 * that internal id now, whatever its id was when the history was written: a renamed group keeps
 * its history, and a group that takes a former or deleted group's id sees none of it. History
 * of a deleted group belongs to no group: only a super admin sees it.
 */
import type { Kv } from "../store/backend/types.ts";
import { canReadGroup, type Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { internalIdsOf, readGroupSet } from "../store/config/group_set.ts";
import { readScope, requireRight, type Right } from "./guards.ts";

/**
 * The internal ids of the groups a history read covers: the requested group's (403 unless
 * readable, 404 when no group has that id), else null (everything) for a super admin, else
 * those of every group of the caller.
 */
export async function historyScope(
  kv: Kv,
  principal: Principal,
  groupId?: string,
): Promise<readonly string[] | null> {
  const scope = readScope(principal, groupId);
  if (scope === null) return null;
  const internalIds = internalIdsOf(await readGroupSet(kv));
  if (groupId !== undefined && !internalIds.has(groupId)) {
    throw new HttpError(404, `Unknown group ${groupId}`);
  }
  return scope.flatMap((id) => {
    const internalId = internalIds.get(id);
    return internalId === undefined ? [] : [internalId];
  });
}

/** The caller's rights over history, by internal id. */
interface HistoryAccess {
  /** The id of the group that has that history now; undefined when it was deleted. */
  groupOf(internalId: string): string | undefined;
  /** Whether the caller may read the history with that internal id. */
  canRead(internalId: string): boolean;
  /**
   * Refuses (403) unless the caller has `right` in the group that has that history now (a
   * super admin always may); `shownId` names the group in the refusal.
   */
  require(internalId: string, right: Right, shownId: string): void;
}

/** The caller's rights over history, from the current groups. */
export async function historyAccess(kv: Kv, principal: Principal): Promise<HistoryAccess> {
  const owners = new Map<string, string>();
  for (const [groupId, internalId] of internalIdsOf(await readGroupSet(kv))) {
    owners.set(internalId, groupId);
  }
  return {
    groupOf: (internalId) => owners.get(internalId),
    canRead(internalId) {
      const groupId = owners.get(internalId);
      return principal.superAdmin || (groupId !== undefined && canReadGroup(principal, groupId));
    },
    require(internalId, right, shownId) {
      if (principal.superAdmin) return;
      const groupId = owners.get(internalId);
      if (groupId === undefined) throw new HttpError(403, `Group ${shownId} no longer exists`);
      requireRight(principal, groupId, right);
    },
  };
}
