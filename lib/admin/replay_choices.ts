/**
 * What the logs page's "Replay…" panel offers: the groups the caller may replay (owner or
 * admin), each with its routes and the channels and chats those routes send to.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { canEditRoutes } from "../auth/principal.ts";
import { listGroups } from "../store/config/groups.ts";
import { getRoutes } from "../store/config/routes.ts";
import { describeTargetRef, targetRefKey } from "../target_ref.ts";

/** One group the panel may replay. */
export interface ReplayGroupChoice {
  id: string;
  name: string;
  routes: { id: string; name: string }[];
  /** `key` as the replay filter names it (`discord:<id>`), `label` in words. */
  targets: { key: string; label: string }[];
}

/** The groups the caller may replay, with their routes and targets. */
export async function replayChoices(kv: Kv, principal: Principal): Promise<ReplayGroupChoice[]> {
  const [groups, { routes }] = await Promise.all([listGroups(kv), getRoutes(kv)]);
  return groups.filter((group) => canEditRoutes(principal, group.id)).map((group) => {
    const own = routes.filter((route) => route.groupId === group.id);
    const targets = new Map<string, string>();
    for (const target of own.flatMap((route) => route.targets)) {
      targets.set(targetRefKey(target), describeTargetRef(target));
    }
    return {
      id: group.id,
      name: group.name,
      routes: own.map(({ id, name }) => ({ id, name })),
      targets: [...targets].map(([key, label]) => ({ key, label })),
    };
  });
}
