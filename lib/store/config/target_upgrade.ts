/**
 * The one-time upgrade to target ownership: routes stored before allowlists existed keep
 * delivering, because the targets they name are allowed for their groups once, audited as
 * `targets.allow` via `upgrade` by the system. Only groups that never had a list are touched,
 * and a marker makes it run once per store, so a target a super admin removes from a list is
 * never put back. A shared instance's super admin should review the lists afterwards
 * (`GET /admin/api/groups/:id/targets` shows them, with every route target they refuse).
 */
import type { Kv } from "../backend/types.ts";
import { MAX_ALLOWED_TARGETS } from "../../limits.ts";
import { targetRefKey } from "../../target_ref.ts";
import type { Target } from "../../types.ts";
import { allowTargets, getAllowedTargets } from "./allowed_targets.ts";
import type { AuditActor } from "../telemetry/audit.ts";
import { listGroups } from "./groups.ts";
import { allowedTargetsUpgradedKey } from "../keys.ts";
import { getRoutes } from "./routes.ts";

/** The actor of changes the application makes on its own. */
const SYSTEM_ACTOR: AuditActor = { userId: "system", login: "system" };

/** The targets of `routes` by group, each channel or chat once, at most the list's limit. */
function targetsByGroup(routes: readonly { groupId: string; targets: Target[] }[]) {
  const byGroup = new Map<string, Map<string, Target>>();
  for (const route of routes) {
    const targets = byGroup.get(route.groupId) ?? new Map<string, Target>();
    byGroup.set(route.groupId, targets);
    for (const target of route.targets) {
      if (targets.size < MAX_ALLOWED_TARGETS) targets.set(targetRefKey(target), target);
    }
  }
  return byGroup;
}

/**
 * Allows, once, the targets of the stored routes for their groups that have no list yet;
 * answers how many targets it allowed (0 when the upgrade already ran).
 */
export async function allowTargetsOfStoredRoutes(
  kv: Kv,
  now: number = Date.now(),
): Promise<number> {
  if ((await kv.get(allowedTargetsUpgradedKey())).versionstamp !== null) return 0;
  const [{ routes }, groups] = await Promise.all([getRoutes(kv), listGroups(kv)]);
  const known = new Set(groups.map((group) => group.id));
  let allowed = 0;
  for (const [groupId, targets] of targetsByGroup(routes)) {
    if (!known.has(groupId)) continue;
    if ((await getAllowedTargets(kv, groupId)).versionstamp !== null) continue;
    const result = await allowTargets(
      kv,
      groupId,
      [...targets.values()],
      SYSTEM_ACTOR,
      "upgrade",
      now,
    );
    if (result.ok) allowed += result.added.length;
  }
  await kv.set(allowedTargetsUpgradedKey(), now);
  return allowed;
}
