/**
 * Group invites in the admin API (owner): create, list, revoke. Accepting one happens on the
 * browser page `/admin/invite` (`routes/admin/invite.tsx`).
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import { HttpError } from "../fresh/mod.ts";
import {
  createInvite,
  getInviteEntry,
  type InviteRole,
  listInvites,
  MAX_PENDING_INVITES,
  revokeInvite,
} from "../store/config/invites.ts";
import { getGroup } from "../store/config/groups.ts";
import { actorOf, requireGroup, requireRight } from "./guards.ts";

/** The address a person opens to accept an invite. */
function inviteUrl(config: Config, token: string): string {
  return `${config.baseUrl}/admin/invite?token=${encodeURIComponent(token)}`;
}

/** `GET /admin/api/groups/:id/invites`: the group's pending invites. */
export async function listGroupInvites(
  kv: Kv,
  config: Config,
  principal: Principal,
  groupId: string,
) {
  await requireGroup(kv, principal, groupId, "own");
  const invites = await listInvites(kv, groupId);
  return {
    invites: invites.map((invite) => ({
      token: invite.token,
      url: inviteUrl(config, invite.token),
      role: invite.role,
      createdBy: invite.createdBy,
      createdAt: invite.createdAt,
      expiresAt: invite.expiresAt,
    })),
  };
}

/** `POST /admin/api/groups/:id/invites`: a new single-use invite granting `role`. */
export async function createGroupInvite(
  kv: Kv,
  config: Config,
  principal: Principal,
  groupId: string,
  role: InviteRole,
) {
  await requireGroup(kv, principal, groupId, "own");
  const invite = await createInvite(kv, { groupId, role, createdBy: actorOf(principal) });
  if (!invite) {
    throw new HttpError(
      400,
      `At most ${MAX_PENDING_INVITES} pending invites per group; revoke one first`,
    );
  }
  return {
    token: invite.token,
    url: inviteUrl(config, invite.token),
    role: invite.role,
    expiresAt: invite.expiresAt,
  };
}

/** `DELETE /admin/api/invites/:token`: revokes a pending invite (owner of its group). */
export async function revokeGroupInvite(
  kv: Kv,
  principal: Principal,
  token: string,
): Promise<{ ok: true }> {
  const entry = await getInviteEntry(kv, token);
  if (!entry) throw new HttpError(404, "Unknown, used or expired invite");
  requireRight(principal, entry.invite.groupId, "own");
  if (!await revokeInvite(kv, entry, actorOf(principal))) {
    throw new HttpError(404, "Unknown, used or expired invite");
  }
  return { ok: true };
}

/** What the invite page shows: the pending invite and its group, or null when unusable. */
export async function describeInvite(kv: Kv, token: string) {
  const entry = token ? await getInviteEntry(kv, token) : null;
  if (!entry) return null;
  const group = await getGroup(kv, entry.invite.groupId);
  return group ? { invite: entry.invite, groupName: group.name } : null;
}

/**
 * How the person can already reach the invite's group, when accepting would change nothing:
 * their role in it (an admin invite still upgrades a viewer), or `super admin`; else null.
 */
export function accessAlready(
  principal: Principal,
  invite: { groupId: string; role: InviteRole },
): string | null {
  const role = principal.roles.get(invite.groupId);
  if (role !== undefined) return role === "viewer" && invite.role === "admin" ? null : role;
  return principal.superAdmin ? "super admin" : null;
}
