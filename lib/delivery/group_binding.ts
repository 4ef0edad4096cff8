/**
 * Whether a group is bound to a repository in a way nobody in the group can forge: what makes a
 * notification actionable when delivery records it (`tracking.ts`), and what chat-ops checks
 * again when a button is pressed (`lib/chatops/authorize.ts`).
 */
import type { ForgeEvent, Group } from "../types.ts";

function ownerOf(repository: string): string {
  return repository.slice(0, repository.indexOf("/")).toLowerCase();
}

/** Whether the group's `owners` (set by a super admin) names the repository's owner. */
export function ownersName(group: Group, repository: string): boolean {
  const owner = ownerOf(repository);
  return (group.owners ?? []).some((name) => name.toLowerCase() === owner);
}

/**
 * Whether `event` about `repository` reached `group` through a binding nobody in the group can
 * forge: the global ingress (signed with the instance's secret) carrying the group's
 * installation, or the group's `owners` naming the repository's owner. A group's own ingress is
 * signed with the group's secret, so its `installation` proves nothing.
 */
export function eventBoundToGroup(event: ForgeEvent, group: Group, repository: string): boolean {
  if (ownersName(group, repository)) return true;
  const installation = event.payload.installation as { id?: unknown } | null | undefined;
  return event.scope.type === "global" && group.installationId !== undefined &&
    installation?.id === group.installationId;
}
