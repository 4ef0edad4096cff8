/**
 * Target ownership: each group's allowlist of the chat targets (Discord channels, Telegram
 * chats) its routes may post into. A group's list is stored as pages under
 * `["allowed_targets", groupId]` (`allowed_target_pages.ts`), written together, so a change is
 * one atomic write together with its audit entry, and the first page's versionstamp serves
 * `If-Match`. Every write that adds a target also bumps `["allowed_targets_epoch"]`, which a
 * claim checks (`target_claims.ts`), so a claim never misses a target allowed meanwhile.
 */
import type { AtomicCheck, Kv } from "../backend/types.ts";
import { MAX_ALLOWED_TARGETS } from "../../limits.ts";
import { describeTargetRef, type TargetRef, targetRefKey, targetRefOf } from "../../target_ref.ts";
import type { Target } from "../../types.ts";
import {
  addAuditEntry,
  type AuditAction,
  type AuditActor,
  currentInternalIds,
  newAuditEntry,
} from "../telemetry/audit.ts";
import { addAllowlistWrite, readAllowlist, type StoredAllowlist } from "./allowed_target_pages.ts";
import { getManyInBatches } from "../batch.ts";
import { allowedTargetsEpochKey, allowedTargetsKey } from "../keys.ts";

/** How a target came onto a group's list. */
type AllowedVia = "admin" | "routes" | "claim" | "upgrade";

/** One entry of a group's allowlist. */
export interface AllowedTarget {
  target: TargetRef;
  /** Unix milliseconds. */
  allowedAt: number;
  allowedBy: AuditActor;
  via: AllowedVia;
}

/** The value at `["allowed_targets", groupId]`: the list's first page. */
export interface AllowedTargetsRecord {
  targets: AllowedTarget[];
  /** Unix milliseconds. */
  updatedAt: number;
  /** How many pages the list has, when more than one. */
  pages?: number;
}

/** A group's allowlist with the record's versionstamp (null when none was ever stored). */
type StoredAllowedTargets = StoredAllowlist;

/** Outcome of a change: `conflict` when the list changed since it was read. */
type AllowedTargetsResult =
  | { ok: true; count: number; added: TargetRef[]; removed: TargetRef[] }
  | { ok: false; reason: "conflict" }
  | { ok: false; reason: "too_many"; limit: number };

const ATTEMPTS = 5;
/** Most targets an audit entry names; it counts the others (`addedMore`, `removedMore`). */
const AUDIT_LISTED = 100;

/** The targets for an audit entry's detail: the first {@link AUDIT_LISTED}, and how many more. */
function auditList(name: "added" | "removed", refs: readonly TargetRef[]) {
  const listed = { [name]: refs.slice(0, AUDIT_LISTED).map(describeTargetRef) };
  return refs.length > AUDIT_LISTED
    ? { ...listed, [`${name}More`]: refs.length - AUDIT_LISTED }
    : listed;
}

/** The group's allowed targets, in stored order. */
export function getAllowedTargets(kv: Kv, groupId: string): Promise<StoredAllowedTargets> {
  return readAllowlist(kv, groupId);
}

/** The keys (`targetRefKey`) each group is allowed, by group id. */
export async function allowedKeysOf(
  kv: Kv,
  groupIds: Iterable<string>,
): Promise<Map<string, Set<string>>> {
  const ids = [...new Set(groupIds)];
  const allowed = new Map<string, Set<string>>();
  const entries = await getManyInBatches<AllowedTargetsRecord>(kv, ids.map(allowedTargetsKey));
  for (const [index, groupId] of ids.entries()) {
    const first = entries[index].value;
    const targets = (first?.pages ?? 1) > 1
      ? (await readAllowlist(kv, groupId)).targets
      : first?.targets ?? [];
    allowed.set(groupId, new Set(targets.map((entry) => targetRefKey(entry.target))));
  }
  return allowed;
}

/** Whether the group may post into `target` (its channel or chat is on the group's list). */
export async function isTargetAllowed(
  kv: Kv,
  groupId: string,
  target: Target | TargetRef,
): Promise<boolean> {
  const key = targetRefKey(target);
  const { targets } = await getAllowedTargets(kv, groupId);
  return targets.some((entry) => targetRefKey(entry.target) === key);
}

/** `refs` as channels or chats, each once, in the given order. */
function distinctRefs(refs: readonly (Target | TargetRef)[]): TargetRef[] {
  const seen = new Set<string>();
  return refs.map(targetRefOf).filter((ref) => {
    const key = targetRefKey(ref);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface Change {
  groupId: string;
  read: StoredAllowedTargets;
  next: AllowedTarget[];
  added: TargetRef[];
  removed: TargetRef[];
  audit: {
    actor: AuditActor;
    action: AuditAction;
    target?: string;
    detail: Record<string, unknown>;
  };
}

/** Commits a change with its audit entry, checked against the versionstamp it was read at. */
async function commitChange(
  kv: Kv,
  change: Change,
  now: number,
  checks: readonly AtomicCheck[] = [],
): Promise<boolean> {
  const internalIds = await currentInternalIds(kv);
  const op = kv.atomic()
    .check(...checks)
    .check({ key: allowedTargetsKey(change.groupId), versionstamp: change.read.versionstamp });
  addAllowlistWrite(op, change.groupId, change.next, now);
  if (change.added.length > 0) op.sum(allowedTargetsEpochKey(), 1n);
  addAuditEntry(op, newAuditEntry({ ...change.audit, groupId: change.groupId }, now), internalIds);
  return (await op.commit()).ok;
}

/**
 * Replaces the group's allowlist (a set: order and duplicates are not kept apart). Targets
 * already on the list keep how and when they were allowed; new ones are recorded as allowed
 * by `actor` through the admin API. The change and its audit entry (`targets.replace`, with
 * what was added and removed) are one atomic write; nothing is written when the set is the
 * same. `expected` works as for routes: a versionstamp (or null for "none stored yet") makes a
 * stale replacement a conflict; undefined lets the last writer win.
 */
export async function replaceAllowedTargets(
  kv: Kv,
  groupId: string,
  refs: readonly (Target | TargetRef)[],
  actor: AuditActor,
  expected?: string | null,
  now: number = Date.now(),
): Promise<AllowedTargetsResult> {
  const wanted = distinctRefs(refs);
  if (wanted.length > MAX_ALLOWED_TARGETS) {
    return { ok: false, reason: "too_many", limit: MAX_ALLOWED_TARGETS };
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const read = await getAllowedTargets(kv, groupId);
    if (expected !== undefined && read.versionstamp !== expected) break;
    const before = new Map(read.targets.map((entry) => [targetRefKey(entry.target), entry]));
    const wantedKeys = new Set(wanted.map(targetRefKey));
    const next = wanted.map((target) =>
      before.get(targetRefKey(target)) ??
        { target, allowedAt: now, allowedBy: actor, via: "admin" as const }
    );
    const added = wanted.filter((target) => !before.has(targetRefKey(target)));
    const removed = read.targets.map((entry) => entry.target).filter((target) =>
      !wantedKeys.has(targetRefKey(target))
    );
    if (added.length === 0 && removed.length === 0) {
      return { ok: true, count: read.targets.length, added, removed };
    }
    const change: Change = {
      groupId,
      read,
      next,
      added,
      removed,
      audit: {
        actor,
        action: "targets.replace",
        detail: { ...auditList("added", added), ...auditList("removed", removed) },
      },
    };
    if (await commitChange(kv, change, now)) {
      return { ok: true, count: next.length, added, removed };
    }
    if (expected !== undefined) break;
  }
  return { ok: false, reason: "conflict" };
}

/** What an addition checks besides the list itself (claims check more, see `target_claims.ts`). */
interface AllowOptions {
  now?: number;
  /** Entries that must be unchanged since they were read, checked in the same write. */
  checks?: readonly AtomicCheck[];
}

/**
 * One attempt of {@link allowTargets}: reads the list and commits the addition checked against
 * it (and `options.checks`); `conflict` when something changed meanwhile.
 */
export async function allowTargetsOnce(
  kv: Kv,
  groupId: string,
  targets: readonly (Target | TargetRef)[],
  actor: AuditActor,
  via: AllowedVia,
  options: AllowOptions = {},
): Promise<AllowedTargetsResult> {
  const now = options.now ?? Date.now();
  const wanted = distinctRefs(targets);
  const read = await getAllowedTargets(kv, groupId);
  const known = new Set(read.targets.map((entry) => targetRefKey(entry.target)));
  const added = wanted.filter((target) => !known.has(targetRefKey(target)));
  if (added.length === 0) return { ok: true, count: read.targets.length, added, removed: [] };
  const next = [
    ...read.targets,
    ...added.map((target) => ({ target, allowedAt: now, allowedBy: actor, via })),
  ];
  if (next.length > MAX_ALLOWED_TARGETS) {
    return { ok: false, reason: "too_many", limit: MAX_ALLOWED_TARGETS };
  }
  const change: Change = {
    groupId,
    read,
    next,
    added,
    removed: [],
    audit: {
      actor,
      action: via === "claim" ? "targets.claim" : "targets.allow",
      ...(added.length === 1 ? { target: describeTargetRef(added[0]) } : {}),
      detail: { ...auditList("added", added), via },
    },
  };
  return await commitChange(kv, change, now, options.checks)
    ? { ok: true, count: next.length, added, removed: [] }
    : { ok: false, reason: "conflict" };
}

/**
 * Adds the targets (their channels or chats) that are not on the group's list yet, as allowed
 * by `actor` `via` the given way, with one audit entry (`targets.allow`, or `targets.claim`)
 * in the same atomic write. Nothing is written when every target is already allowed.
 */
export async function allowTargets(
  kv: Kv,
  groupId: string,
  targets: readonly (Target | TargetRef)[],
  actor: AuditActor,
  via: AllowedVia,
  now: number = Date.now(),
): Promise<AllowedTargetsResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const result = await allowTargetsOnce(kv, groupId, targets, actor, via, { now });
    if (result.ok || result.reason !== "conflict") return result;
  }
  return { ok: false, reason: "conflict" };
}
