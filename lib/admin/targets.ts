/**
 * A group's allowed chat targets (target ownership, `lib/store/config/allowed_targets.ts`): listed
 * for any member with the targets of the group's routes that are refused and why; replaced
 * by a super admin only, the change and its audit entry in one atomic write, `If-Match`
 * answering 409 when stale. Only a super admin may allow a target for several groups.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import {
  type AllowedTarget,
  getAllowedTargets,
  replaceAllowedTargets,
} from "../store/config/allowed_targets.ts";
import { getGroupRoutes } from "../store/config/routes.ts";
import { notAllowedMessage, type TargetRef, targetRefKey } from "../target_ref.ts";
import type { Target } from "../types.ts";
import { actorOf, requireGroup } from "./guards.ts";
import { Versioned } from "./versioned.ts";

/** A group's allowed targets, and the targets of its routes the list refuses (with why). */
/** A group's allowed targets and the route targets it refuses, as listed. */
export interface GroupTargets {
  targets: AllowedTarget[];
  refused: { routeId: string; target: Target; reason: string }[];
}

/** The list of a group the caller may read, and its versionstamp (the `ETag`). */
export async function readGroupTargets(
  kv: Kv,
  principal: Principal,
  groupId: string,
): Promise<Versioned<GroupTargets>> {
  await requireGroup(kv, principal, groupId, "read");
  const [stored, { routes }] = await Promise.all([
    getAllowedTargets(kv, groupId),
    getGroupRoutes(kv, groupId),
  ]);
  const allowed = new Set(stored.targets.map((entry) => targetRefKey(entry.target)));
  const refused = routes.flatMap((route) =>
    route.targets
      .filter((target) => !allowed.has(targetRefKey(target)))
      .map((target) => ({ routeId: route.id, target, reason: notAllowedMessage(target, groupId) }))
  );
  return new Versioned({ targets: stored.targets, refused }, stored.versionstamp);
}

/** `GET /admin/api/groups/:id/targets`: the list, and the route targets it refuses. */
export const listGroupTargets = readGroupTargets;

function requireDistinct(targets: readonly TargetRef[]) {
  const seen = new Map<string, number>();
  targets.forEach((target, index) => {
    const earlier = seen.get(targetRefKey(target));
    if (earlier !== undefined) {
      throw new HttpError(400, `targets[${index}]: the same target as targets[${earlier}]`);
    }
    seen.set(targetRefKey(target), index);
  });
}

/** `PUT /admin/api/groups/:id/targets`: replaces the group's allowlist (super admin). */
export async function replaceGroupTargets(
  kv: Kv,
  principal: Principal,
  groupId: string,
  targets: TargetRef[],
  expected: string | null | undefined,
): Promise<{ ok: true; count: number }> {
  if (!principal.superAdmin) {
    throw new HttpError(403, `Only a super admin may set the allowed targets of group ${groupId}`);
  }
  await requireGroup(kv, principal, groupId, "own");
  requireDistinct(targets);
  const result = await replaceAllowedTargets(kv, groupId, targets, actorOf(principal), expected);
  if (result.ok) return { ok: true, count: result.count };
  if (result.reason === "conflict") {
    throw new HttpError(
      409,
      "The allowed targets changed since they were read; reload and try again",
    );
  }
  throw new HttpError(400, `targets: at most ${result.limit} targets per group`);
}
