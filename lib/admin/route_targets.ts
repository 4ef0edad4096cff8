/**
 * Target ownership when routes are saved. Every target of a new or changed route must be on
 * its group's allowlist; otherwise the save answers 400 naming the route's target, why it is
 * refused and what would allow it. A super admin's save allows the targets it names instead
 * (audited as `targets.allow` via `routes`), so a single-operator instance needs no extra
 * step. Role pings (`discordRoleIds`) go only with a route's Discord targets, so they pass the
 * same check. Routes saved unchanged are not checked again: if one of their targets was
 * removed from the list meanwhile, the delivery worker refuses it at send time.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { allowedKeysOf, allowTargets } from "../store/config/allowed_targets.ts";
import { notAllowedMessage, targetRefKey } from "../target_ref.ts";
import type { Route, Target } from "../types.ts";
import { actorOf } from "./guards.ts";

/** A route being saved, with its position in the request body. */
export interface SubmittedRoute {
  route: Route;
  index: number;
}

function targetsByGroup(routes: readonly SubmittedRoute[]): Map<string, Target[]> {
  const byGroup = new Map<string, Target[]>();
  for (const { route } of routes) {
    byGroup.set(route.groupId, [...(byGroup.get(route.groupId) ?? []), ...route.targets]);
  }
  return byGroup;
}

/** Allows the targets of a super admin's changed routes for their groups (audited). */
async function allowForSuperAdmin(
  kv: Kv,
  principal: Principal,
  routes: readonly SubmittedRoute[],
) {
  for (const [groupId, targets] of targetsByGroup(routes)) {
    const result = await allowTargets(kv, groupId, targets, actorOf(principal), "routes");
    if (result.ok) continue;
    if (result.reason === "too_many") {
      throw new HttpError(
        400,
        `routes: group ${groupId} would have more than ${result.limit} allowed targets`,
      );
    }
    throw new HttpError(409, "The allowed targets changed while saving; try again");
  }
}

/**
 * Applies target ownership to the routes a save changes (`changed`: new routes and routes that
 * differ from their stored version): refuses (400) a target not allowed for the route's group,
 * or, for a super admin, allows it.
 */
export async function enforceTargetOwnership(
  kv: Kv,
  principal: Principal,
  changed: readonly SubmittedRoute[],
): Promise<void> {
  if (changed.length === 0) return;
  if (principal.superAdmin) return await allowForSuperAdmin(kv, principal, changed);
  const allowed = await allowedKeysOf(kv, changed.map(({ route }) => route.groupId));
  for (const { route, index } of changed) {
    route.targets.forEach((target, position) => {
      if (allowed.get(route.groupId)?.has(targetRefKey(target))) return;
      throw new HttpError(
        400,
        `routes[${index}].targets[${position}]: ${notAllowedMessage(target, route.groupId)}`,
      );
    });
  }
}
