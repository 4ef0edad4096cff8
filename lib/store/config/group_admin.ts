/**
 * Group replacement and rename for the admin API, with everything that belongs to a group
 * (routes, fragments, webhook secret, invites, allowed targets) kept consistent.
 *
 * Group records change through the group set (`group_set.ts`), checked against the version
 * they were read at. Routes live in the versioned route set (`routes.ts`), which cannot join
 * that write, so the steps are ordered to keep every intermediate state correct:
 *
 * - what is left under a group id that no group has (routes, invites, secret, fragments, allowed targets) is
 *   cleared in writes checked against the group set's version, so nothing of a group that took
 *   the id meanwhile is ever touched. That happens before an id is created, so nothing left
 *   behind by an earlier group of that id comes back to life, and after a group is deleted or
 *   renamed away (a route of a missing group never fires, an invite to a missing group is
 *   refused, a missing group's ingress answers 404);
 * - a replacement writes the new group set aside and switches to it in one operation, however
 *   many groups it creates, changes or deletes: readers see the old set or the new one;
 * - a rename writes a new route set aside with the group's routes renamed in place (the
 *   instance's route count stays as it is), and switches to it in the same commit that moves
 *   the record (with its internal id, so its history follows), secret, fragments, allowed
 *   targets and invites: readers see the group under its old id with its routes, or under the
 *   new one with them, never a half-renamed group. A failed switch leaves the set unused
 *   (deleted, or swept as an orphan after a crash).
 */
import type { AtomicCheck, AtomicOperation, Kv } from "../backend/types.ts";
import type { Group, Route } from "../../types.ts";
import {
  addAllowlistDelete,
  addAllowlistWrite,
  readAllowlist,
  storedAllowlistKeys,
} from "./allowed_target_pages.ts";
import { addAuditEntry, type AuditEntry } from "../telemetry/audit.ts";
import type { FragmentsRecord } from "./fragments.ts";
import {
  type GroupEntry,
  type GroupRecord,
  type GroupSet,
  groupSetWriter,
  internalIdsOf,
  newInternalId,
  readGroupSet,
  switchGroupSet,
} from "./group_set.ts";
import {
  addInviteDelete,
  addInviteWrite,
  type InviteEntry,
  listInviteEntries,
  readInvitesVersion,
} from "./invites.ts";
import {
  allowedTargetsKey,
  fragmentsKey,
  groupsPointerKey,
  invitesVersionKey,
  tenantKey,
} from "../keys.ts";
import { getRoutes, replaceRoutes, type ReplaceRoutesResult } from "./routes.ts";
import type { GroupSecret } from "./group_secrets.ts";

/** One change to the group set, checked against the versionstamp the group was read at. */
export type GroupChange =
  | { kind: "create"; group: Group }
  | { kind: "update"; group: Group; expected: string }
  | { kind: "delete"; groupId: string; expected: string };

/** Outcome of a rename. */
type RenameResult =
  | { ok: true; group: Group; routes: number }
  | { ok: false; reason: "missing" | "exists" | "conflict" }
  | Exclude<ReplaceRoutesResult, { ok: true } | { reason: "conflict" }>;

const ATTEMPTS = 5;

/**
 * Rewrites the route set with `change` (read, change, replace checked against what was read,
 * and against `checks`; retried when the route set changed meanwhile). Answers the
 * replacement's result, or null when `change` left the routes as they were.
 */
async function rewriteRoutes(
  kv: Kv,
  change: (routes: Route[]) => Route[] | null,
  audits: readonly AuditEntry[] = [],
  checks: readonly AtomicCheck[] = [],
): Promise<ReplaceRoutesResult | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await getRoutes(kv);
    const next = change(current.routes);
    if (next === null) return null;
    const result = await replaceRoutes(kv, next, current.versionstamp, { audits, checks });
    if (result.ok || result.reason !== "conflict") return result;
  }
  return { ok: false, reason: "conflict" };
}

/** The check that no group changed since the set was read at `version`. */
function groupsUnchanged(version: string | null): AtomicCheck {
  return { key: groupsPointerKey(), versionstamp: version };
}

/**
 * Clears what is stored under group ids that no group has in the set read at `version`:
 * secrets, fragments, allowed targets, invites and routes, each write checked against `version`. False when the
 * groups changed meanwhile (what was cleared before that was leftovers all the same).
 */
async function clearLeftovers(
  kv: Kv,
  groupIds: ReadonlySet<string>,
  version: string | null,
): Promise<boolean> {
  if (groupIds.size === 0) return true;
  const unchanged = groupsUnchanged(version);
  const op = kv.atomic().check(unchanged);
  for (const id of groupIds) op.delete(tenantKey(id)).delete(fragmentsKey(id));
  for (const key of await storedAllowlistKeys(kv, groupIds)) op.delete(key);
  if (!(await op.commit()).ok) return false;
  for (const groupId of groupIds) {
    for (const { invite } of await listInviteEntries(kv, groupId)) {
      if (!(await addInviteDelete(kv.atomic().check(unchanged), invite).commit()).ok) return false;
    }
  }
  const dropped = await rewriteRoutes(
    kv,
    (routes) => {
      const kept = routes.filter((route) => !groupIds.has(route.groupId));
      return kept.length === routes.length ? null : kept;
    },
    [],
    [unchanged],
  );
  return dropped === null || dropped.ok;
}

/** Clears what is left under the given ids, as long as no group has them (retried). */
async function clearGone(kv: Kv, groupIds: Iterable<string>): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const set = await readGroupSet(kv);
    const present = new Set(set.entries.map((entry) => entry.group.id));
    const gone = new Set([...groupIds].filter((id) => !present.has(id)));
    if (await clearLeftovers(kv, gone, set.version)) return;
  }
}

function changedId(change: GroupChange): string {
  return change.kind === "delete" ? change.groupId : change.group.id;
}

/**
 * Applies creations, updates and deletions of groups to the set read as `set`, with their
 * audit entries, in one switch of the group set (see the module comment for what happens
 * around it). A created group gets a fresh internal id. False when a group changed since the
 * set was read (no group is changed then).
 */
export async function applyGroupChanges(
  kv: Kv,
  set: GroupSet,
  changes: readonly GroupChange[],
  audits: readonly AuditEntry[],
): Promise<boolean> {
  const stored = new Map(set.entries.map((entry) => [entry.group.id, entry]));
  for (const change of changes) {
    const expected = change.kind === "create" ? null : change.expected;
    if ((stored.get(changedId(change))?.versionstamp ?? null) !== expected) return false;
  }
  const created = new Set(
    changes.flatMap((change) => change.kind === "create" ? [change.group.id] : []),
  );
  if (!(await clearLeftovers(kv, created, set.version))) return false;

  const internalIds = internalIdsOf(set);
  const next = new Map<string, GroupRecord>(
    set.entries.map(({ group, internalId }) => [group.id, { group, internalId }]),
  );
  for (const change of changes) {
    if (change.kind === "delete") {
      next.delete(change.groupId);
      continue;
    }
    const internalId = stored.get(change.group.id)?.internalId ?? newInternalId();
    internalIds.set(change.group.id, internalId);
    next.set(change.group.id, { group: change.group, internalId });
  }
  const switched = await switchGroupSet(kv, set.version, [...next.values()], (op) => {
    for (const audit of audits) addAuditEntry(op, audit, internalIds);
  });
  if (switched === null) return false;
  await clearGone(
    kv,
    changes.flatMap((change) => change.kind === "delete" ? [change.groupId] : []),
  );
  return true;
}

/**
 * The route set with `from`'s routes under `to`, each where it was, and without leftovers
 * under `to` (routes of an earlier group of that id).
 */
function withRenamedRoutes(routes: readonly Route[], from: string, to: string): Route[] {
  return routes.filter((route) => route.groupId !== to).map((route) =>
    route.groupId === from ? { ...route, groupId: to } : route
  );
}

interface MoveInput {
  set: GroupSet;
  source: GroupEntry;
  to: string;
  name: string | undefined;
  audit: (group: Group) => AuditEntry;
}

/** The group's move, read and ready to join the route set's switch. */
interface PreparedMove {
  group: Group;
  checks: AtomicCheck[];
  write(op: AtomicOperation): void;
}

/**
 * Reads what a rename moves besides the routes: record (with its internal id), secret,
 * fragments, allowed targets and invites. They move in the route set's switch, so the commit
 * holds six checks however much the group holds (a `denokv` server allows 10): the route set,
 * the secret, the fragments, the allowlist (one record for all its pages), the group set, and
 * the version of the group's invites (one key that every invite write and delete sets,
 * `invites.ts`), so an invite revoked, accepted or created meanwhile fails the move, which is
 * then tried again on what is stored.
 */
async function prepareMove(kv: Kv, input: MoveInput, now: number): Promise<PreparedMove> {
  const { source, to } = input;
  const from = source.group.id;
  const [secret, fragments] = await kv.getMany<[GroupSecret, FragmentsRecord]>([
    tenantKey(from),
    fragmentsKey(from),
  ]);
  const allowed = await readAllowlist(kv, from);
  const invitesVersion = await readInvitesVersion(kv, from);
  const invites: InviteEntry[] = await listInviteEntries(kv, from, now);
  const leftovers = await listInviteEntries(kv, to, now);
  const group: Group = { ...source.group, id: to, name: input.name ?? source.group.name };
  const checks: AtomicCheck[] = [
    secret,
    fragments,
    { key: allowedTargetsKey(from), versionstamp: allowed.versionstamp },
    { key: invitesVersionKey(from), versionstamp: invitesVersion },
  ];
  const write = (op: AtomicOperation) => {
    op.delete(tenantKey(to)).delete(fragmentsKey(to));
    addAllowlistDelete(op, to);
    const writer = groupSetWriter(op, input.set);
    writer.remove(from);
    writer.put({ group, internalId: source.internalId });
    if (secret.value) op.delete(tenantKey(from)).set(tenantKey(to), secret.value);
    if (fragments.value) {
      const moved: FragmentsRecord = {
        fragments: fragments.value.fragments.map((fragment) => ({ ...fragment, groupId: to })),
        updatedAt: now,
      };
      op.delete(fragmentsKey(from)).set(fragmentsKey(to), moved);
    }
    if (allowed.versionstamp !== null) {
      addAllowlistDelete(op, from);
      addAllowlistWrite(op, to, allowed.targets, now);
    }
    for (const { invite } of leftovers) addInviteDelete(op, invite);
    for (const entry of invites) {
      addInviteDelete(op, entry.invite);
      addInviteWrite(op, { ...entry.invite, groupId: to }, now);
    }
    addAuditEntry(op, input.audit(group), new Map([[to, source.internalId]]));
  };
  return { group, checks, write };
}

/**
 * Renames a group: its record (members, binding, internal id and so its history), routes,
 * fragments, webhook secret and pending invites move to `to`, and `from` is gone afterwards.
 * `name` renames it too. `audit` makes the entry committed with the move. The routes are
 * renamed in place in a new route set, and everything moves in that set's switch (one commit):
 * the instance's route count does not change, and a crash leaves the group unrenamed.
 */
export async function renameGroup(
  kv: Kv,
  rename: { from: string; to: string; name?: string },
  audit: (group: Group, routes: number) => AuditEntry,
  now: number = Date.now(),
): Promise<RenameResult> {
  const { from, to } = rename;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const set = await readGroupSet(kv);
    const source = set.entries.find((entry) => entry.group.id === from);
    if (!source) return { ok: false, reason: "missing" };
    if (set.entries.some((entry) => entry.group.id === to)) return { ok: false, reason: "exists" };

    const current = await getRoutes(kv);
    const routeCount = current.routes.filter((route) => route.groupId === from).length;
    const move = await prepareMove(kv, {
      set,
      source,
      to,
      name: rename.name,
      audit: (moved) => audit(moved, routeCount),
    }, now);
    const switched = await replaceRoutes(
      kv,
      withRenamedRoutes(current.routes, from, to),
      current.versionstamp,
      { checks: move.checks, alongside: move.write },
    );
    if (switched.ok) {
      await clearGone(kv, [from]);
      return { ok: true, group: move.group, routes: routeCount };
    }
    if (switched.reason !== "conflict") return switched;
  }
  return { ok: false, reason: "conflict" };
}
