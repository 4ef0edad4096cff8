/**
 * Group invites: a random token, single use, valid for 7 days, carrying
 * the role it grants. Stored under `["invites", token]` with an index per group
 * (`["invites_by_group", groupId, token]`), both expiring with the invite. Every write that
 * stores or deletes an invite also sets the group's `["invites_version", groupId]`, so a write
 * that moves all of a group's invites (a rename) checks that one key instead of one per invite
 * (a `denokv` server allows 10 checks per commit). Accepting one adds
 * the person to the group and consumes the invite in one atomic write, checked against both
 * records, so an invite can never be used twice.
 */
import type { AtomicOperation, Kv } from "../backend/types.ts";
import { randomToken } from "../../crypto.ts";
import type { Group, Role } from "../../types.ts";
import {
  addAuditEntry,
  type AuditActor,
  type AuditEntry,
  currentInternalIds,
  newAuditEntry,
} from "../telemetry/audit.ts";
import { readIndexed } from "../batch.ts";
import { MAX_GROUP_BYTES } from "../../limits.ts";
import { groupSetWriter, readGroupEntry } from "./group_set.ts";
import { inviteKey, invitesByGroupKey, invitesByGroupPrefix, invitesVersionKey } from "../keys.ts";

/** The roles an invite may grant (never owner). */
export type InviteRole = Exclude<Role, "owner">;

/** The roles an invite may grant. */
const INVITE_ROLES: ReadonlySet<string> = new Set<InviteRole>(["admin", "viewer"]);

/** A pending invite. */
export interface Invite {
  token: string;
  groupId: string;
  role: InviteRole;
  createdBy: AuditActor;
  /** Unix milliseconds. */
  createdAt: number;
  /** Unix milliseconds. */
  expiresAt: number;
}

/** A stored invite and the versionstamp it was read at. */
export interface InviteEntry {
  invite: Invite;
  versionstamp: string;
}

/** How long an invite stays valid. */
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Most pending invites one group may have. */
export const MAX_PENDING_INVITES = 20;

const ATTEMPTS = 5;

/** What accepting an invite did. */
type AcceptInviteResult =
  | { ok: true; group: Group; role: Role; change: "added" | "upgraded" | "unchanged" }
  | { ok: false; reason: "invalid" | "group_missing" | "group_full" };

/** The invite for a token, or null when unknown, used, revoked or expired. */
export async function getInviteEntry(
  kv: Kv,
  token: string,
  now: number = Date.now(),
): Promise<InviteEntry | null> {
  const entry = await kv.get<Invite>(inviteKey(token));
  if (entry.value === null || entry.value.expiresAt <= now) return null;
  // Only the roles an invite may grant count, whatever the record holds.
  if (!INVITE_ROLES.has(entry.value.role)) return null;
  return { invite: entry.value, versionstamp: entry.versionstamp };
}

/** The group's pending invites with their versionstamps, oldest first. */
export async function listInviteEntries(
  kv: Kv,
  groupId: string,
  now: number = Date.now(),
): Promise<InviteEntry[]> {
  const found: InviteEntry[] = [];
  for await (
    const entry of readIndexed<Invite>(kv, { prefix: invitesByGroupPrefix(groupId) }, inviteKey)
  ) {
    if (entry.value.expiresAt > now && entry.value.groupId === groupId) {
      found.push({ invite: entry.value, versionstamp: entry.versionstamp });
    }
  }
  return found.sort((a, b) => a.invite.createdAt - b.invite.createdAt);
}

/** The group's pending invites, oldest first. */
export async function listInvites(
  kv: Kv,
  groupId: string,
  now: number = Date.now(),
): Promise<Invite[]> {
  return (await listInviteEntries(kv, groupId, now)).map((entry) => entry.invite);
}

/**
 * Adds to `op` the new version of a group's invites (see the module comment). It is set, never
 * deleted, so a version once read never comes back; it expires a lifetime after the last change.
 */
function bumpInvitesVersion(op: AtomicOperation, groupId: string) {
  op.set(invitesVersionKey(groupId), Date.now(), { expireIn: INVITE_LIFETIME_MS });
}

/** The version of a group's invites (null before any change), to check a move against. */
export async function readInvitesVersion(kv: Kv, groupId: string): Promise<string | null> {
  return (await kv.get(invitesVersionKey(groupId))).versionstamp;
}

/** Adds the writes that store `invite` (record and index, expiring with it) to `op`. */
export function addInviteWrite(op: AtomicOperation, invite: Invite, now: number) {
  const expireIn = Math.max(1, invite.expiresAt - now);
  op.set(inviteKey(invite.token), invite, { expireIn });
  op.set(invitesByGroupKey(invite.groupId, invite.token), invite.token, { expireIn });
  bumpInvitesVersion(op, invite.groupId);
  return op;
}

/** Adds the deletes of `invite` (record and index) to `op`. */
export function addInviteDelete(op: AtomicOperation, invite: Invite) {
  op.delete(inviteKey(invite.token)).delete(invitesByGroupKey(invite.groupId, invite.token));
  bumpInvitesVersion(op, invite.groupId);
  return op;
}

/**
 * Creates an invite to the group granting `role`, audited in the same write. Null when the
 * group already has the most pending invites allowed.
 */
export async function createInvite(
  kv: Kv,
  input: { groupId: string; role: InviteRole; createdBy: AuditActor },
  now: number = Date.now(),
): Promise<Invite | null> {
  const pending = await listInvites(kv, input.groupId, now);
  if (pending.length >= MAX_PENDING_INVITES) return null;
  const invite: Invite = {
    ...input,
    token: randomToken(32),
    createdAt: now,
    expiresAt: now + INVITE_LIFETIME_MS,
  };
  const audit = newAuditEntry({
    actor: input.createdBy,
    action: "invite.create",
    groupId: input.groupId,
    detail: { role: input.role, expiresAt: invite.expiresAt },
  }, now);
  const op = addInviteWrite(kv.atomic(), invite, now);
  op.check({ key: inviteKey(invite.token), versionstamp: null });
  const result = await addAuditEntry(op, audit, await currentInternalIds(kv)).commit();
  if (!result.ok) throw new Error("Cannot store the invite");
  return invite;
}

/** Revokes a pending invite, audited in the same write; false when it was gone meanwhile. */
export async function revokeInvite(
  kv: Kv,
  entry: InviteEntry,
  actor: AuditActor,
  now: number = Date.now(),
): Promise<boolean> {
  const { invite } = entry;
  const audit = newAuditEntry({
    actor,
    action: "invite.revoke",
    groupId: invite.groupId,
    detail: { role: invite.role },
  }, now);
  const op = kv.atomic().check({ key: inviteKey(invite.token), versionstamp: entry.versionstamp });
  const internalIds = await currentInternalIds(kv);
  const result = await addAuditEntry(addInviteDelete(op, invite), audit, internalIds).commit();
  return result.ok;
}

/** The group's members after `user` joins with `role`; an admin invite upgrades a viewer. */
function joined(group: Group, user: AuditActor, role: InviteRole) {
  const index = group.members.findIndex((member) => member.userId === user.userId);
  if (index < 0) {
    const members = [...group.members, { userId: user.userId, login: user.login, role }];
    return { members, role: role as Role, change: "added" as const };
  }
  const current = group.members[index];
  if (current.role === "viewer" && role === "admin") {
    const members = group.members.with(index, { ...current, role });
    return { members, role: role as Role, change: "upgraded" as const };
  }
  return { members: group.members, role: current.role, change: "unchanged" as const };
}

/**
 * Accepts an invite for `user`: adds them to the group with the invite's role (an admin invite
 * upgrades a viewer; other existing roles stay) and consumes the invite, with an audit entry,
 * in one atomic write checked against the invite and the group.
 */
export async function acceptInvite(
  kv: Kv,
  token: string,
  user: AuditActor,
  now: number = Date.now(),
): Promise<AcceptInviteResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await getInviteEntry(kv, token, now);
    if (!entry) return { ok: false, reason: "invalid" };
    const { invite } = entry;
    const read = await readGroupEntry(kv, invite.groupId);
    if (read.entry === null) return { ok: false, reason: "group_missing" };
    const { internalId } = read.entry;
    const outcome = joined(read.entry.group, user, invite.role);
    const group: Group = { ...read.entry.group, members: outcome.members };
    if (new TextEncoder().encode(JSON.stringify(group)).length > MAX_GROUP_BYTES) {
      return { ok: false, reason: "group_full" };
    }
    const audit: AuditEntry = newAuditEntry({
      actor: user,
      action: "invite.accept",
      groupId: group.id,
      detail: { role: invite.role, result: outcome.change },
    }, now);
    const op = kv.atomic().check({ key: inviteKey(token), versionstamp: entry.versionstamp });
    const writer = groupSetWriter(op, read);
    if (outcome.change !== "unchanged") writer.put({ group, internalId });
    const internalIds = new Map([[group.id, internalId]]);
    const result = await addAuditEntry(addInviteDelete(op, invite), audit, internalIds).commit();
    if (result.ok) return { ok: true, group, role: outcome.role, change: outcome.change };
  }
  throw new Error("the invite or its group kept changing while it was accepted");
}
