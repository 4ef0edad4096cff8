/**
 * Hands an accepted event to personal notifications (`docs/personal.md`): once per
 * event, whatever number of groups it entered, and only when one of them received it through a
 * binding nobody in the group can forge (`group_binding.ts`), so a group's own webhook secret
 * never lets its holder send private messages about a repository the group is not bound to.
 */
import type { Kv } from "../store/backend/types.ts";
import { repositoryOf } from "../store/delivery/event_routes.ts";
import { queuePersonalNotifications } from "../store/notify/notify_jobs.ts";
import type { ForgeEvent, Group, Route } from "../types.ts";
import { eventBoundToGroup } from "./group_binding.ts";

/**
 * Queues the event's personal-notification job when it is a GitHub event that entered a group
 * bound to its repository (`entered`: the ids of the groups it entered; `fired`: the routes
 * that fired).
 */
export async function queuePersonal(
  kv: Kv,
  event: ForgeEvent,
  entered: readonly string[],
  fired: readonly Route[],
  groups: readonly Group[],
): Promise<void> {
  if (event.provider !== "github") return;
  const repository = repositoryOf(event);
  if (!repository) return;
  const ids = new Set(entered);
  const group = groups.find((g) => ids.has(g.id) && eventBoundToGroup(event, g, repository));
  if (!group) return;
  const route = fired.find((r) => r.groupId === group.id);
  await queuePersonalNotifications(kv, {
    eventId: event.id,
    groupId: group.id,
    routeId: route?.id ?? "",
  });
}
