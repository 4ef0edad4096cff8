/**
 * What the console's group pages show (`/admin/groups`, `/admin/groups/:id`), read with the
 * same rights as the admin API: a person sees the groups they belong to (a super admin all of
 * them), and an owner's parts (webhook, invites) only where they are an owner.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { readableGroups } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import { HttpError } from "../fresh/http_error.ts";
import { readGroupSet } from "../store/config/group_set.ts";
import { groupsWithSecret } from "../store/config/group_secrets.ts";
import type { Group, Role } from "../types.ts";
import { actorOf, effectiveRole, requireRight } from "./guards.ts";
import { listGroupInvites } from "./invites.ts";
import { groupTag } from "./single_group.ts";
import { type GroupTargets, readGroupTargets } from "./targets.ts";
import { describeWebhook } from "./webhook.ts";

/** One line of the groups list. */
export interface GroupRow {
  id: string;
  name: string;
  role: Role;
  members: number;
  /** Whether the group's own ingress has a secret. */
  webhook: boolean;
  /** The GitHub App installation and account logins the group is bound to, in words. */
  binding: string | null;
}

/** A pending invite as the console lists it. */
export type InviteView = Awaited<ReturnType<typeof listGroupInvites>>["invites"][number];

/** A group's ingress as the console shows it. */
export type WebhookView = Awaited<ReturnType<typeof describeWebhook>>;

/** Everything the group page shows; the owner-only parts are null for others. */
interface GroupDetail {
  group: Group;
  /** The group's `ETag` value, for `If-Match`. */
  tag: string;
  role: Role;
  canOwn: boolean;
  superAdmin: boolean;
  self: { userId: string; login: string };
  webhook: WebhookView | null;
  invites: InviteView[] | null;
  targets: GroupTargets & { tag: string | null };
}

/** The group's binding in words, or null when it has none. */
export function bindingOf(group: Group): string | null {
  const parts = [
    ...(group.installationId === undefined ? [] : [`installation ${group.installationId}`]),
    ...(group.owners?.length ? [`accounts ${group.owners.join(", ")}`] : []),
  ];
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** The groups list: every group the caller can read, in id order. */
export async function listGroupRows(kv: Kv, principal: Principal): Promise<GroupRow[]> {
  const set = await readGroupSet(kv);
  const groups = readableGroups(principal, set.entries.map((entry) => entry.group));
  const withSecret = await groupsWithSecret(kv, groups.map((group) => group.id));
  return groups.map((group) => ({
    id: group.id,
    name: group.name,
    role: effectiveRole(principal, group.id),
    members: group.members.length,
    webhook: withSecret.has(group.id),
    binding: bindingOf(group),
  }));
}

/** The group page's data (404 for an unknown group, 403 for one the caller cannot read). */
export async function readGroupDetail(
  kv: Kv,
  config: Config,
  principal: Principal,
  groupId: string,
): Promise<GroupDetail> {
  const { entries } = await readGroupSet(kv);
  const group = entries.find((entry) => entry.group.id === groupId)?.group;
  if (!group) throw new HttpError(404, `Unknown group ${groupId}`);
  requireRight(principal, groupId, "read");
  const role = effectiveRole(principal, groupId);
  const canOwn = principal.superAdmin || role === "owner";
  const [tag, targets, webhook, invites] = await Promise.all([
    groupTag(group),
    readGroupTargets(kv, principal, groupId),
    canOwn ? describeWebhook(kv, config, principal, groupId) : null,
    canOwn ? listGroupInvites(kv, config, principal, groupId) : null,
  ]);
  return {
    group,
    tag,
    role,
    canOwn,
    superAdmin: principal.superAdmin,
    self: actorOf(principal),
    webhook,
    invites: invites?.invites ?? null,
    targets: { ...targets.data, tag: targets.version },
  };
}
