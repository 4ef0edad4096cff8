/**
 * Group replacement and rename for the admin API, with everything that belongs to a group
 * (routes, fragments, webhook secret, invites, allowed targets) kept consistent.
 *
 * Group records change in one atomic write checked against the versionstamps they were read
 * at. Routes live in the versioned route set (`routes.ts`), which cannot join that write, so
 * the steps are ordered to keep every intermediate state correct:
 *
 * - a group id about to be created is first cleared of leftovers (routes, invites), so nothing
 *   left behind by an earlier group of that id comes back to life;
 * - a deleted group's secret, fragments and allowed targets go in the same write as its
 *   record (so do a created group's leftovers); its routes and invites go right after (a route
 *   of a missing group never fires, an invite to a missing group is refused);
 * - a rename first adds copies of the group's routes under the new id (inert: no such group
 *   yet), then moves the record, secret, fragments, allowed targets and invites in one write
 *   checked against the route set it just wrote, then drops the routes under the old id
 *   (inert: the group is gone). A failed move removes the copies again.
 */
import type { Group, Route } from "../types.ts";
import type { AllowedTargetsRecord } from "./allowed_targets.ts";
import { addAuditEntry, type AuditEntry } from "./audit.ts";
import type { FragmentsRecord } from "./fragments.ts";
import { addInviteDelete, addInviteWrite, type InviteEntry, listInviteEntries } from "./invites.ts";
import {
  allowedTargetsKey,
  fragmentsKey,
  groupKey,
  inviteKey,
  routesPointerKey,
  tenantKey,
} from "./keys.ts";
import { getRoutes, replaceRoutes, type ReplaceRoutesResult } from "./routes.ts";
import type { GroupSecret } from "./tenants.ts";

/** One change to the group set, checked against the versionstamp the group was read at. */
export type GroupChange =
  | { kind: "create"; group: Group }
  | { kind: "update"; group: Group; expected: string }
  | { kind: "delete"; groupId: string; expected: string };

/** Outcome of a rename. */
export type RenameResult =
  | { ok: true; group: Group; routes: number }
  | { ok: false; reason: "missing" | "exists" | "conflict" }
  | { ok: false; reason: "too_many"; limit: number };

const ATTEMPTS = 5;

/**
 * Rewrites the route set with `change` (read, change, replace checked against what was read;
 * retried when the set changed meanwhile). Answers the replacement's result, or null when
 * `change` left the routes as they were.
 */
export async function rewriteRoutes(
  kv: Deno.Kv,
  change: (routes: Route[]) => Route[] | null,
  audits: readonly AuditEntry[] = [],
): Promise<ReplaceRoutesResult | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await getRoutes(kv);
    const next = change(current.routes);
    if (next === null) return null;
    const result = await replaceRoutes(kv, next, current.versionstamp, { audits });
    if (result.ok || result.reason !== "conflict") return result;
  }
  return { ok: false, reason: "conflict" };
}

/** Removes every route of the given groups; nothing when they have none. */
async function dropRoutesOf(kv: Deno.Kv, groupIds: ReadonlySet<string>) {
  if (groupIds.size === 0) return null;
  return await rewriteRoutes(kv, (routes) => {
    const kept = routes.filter((route) => !groupIds.has(route.groupId));
    return kept.length === routes.length ? null : kept;
  });
}

async function dropInvitesOf(kv: Deno.Kv, groupIds: Iterable<string>) {
  for (const groupId of groupIds) {
    for (const { invite } of await listInviteEntries(kv, groupId)) {
      await addInviteDelete(kv.atomic(), invite).commit();
    }
  }
}

/**
 * Applies creations, updates and deletions of groups with their audit entries in one atomic
 * write (see the module comment for what happens around it). False when a group changed since
 * it was read (nothing is written then).
 */
export async function applyGroupChanges(
  kv: Deno.Kv,
  changes: readonly GroupChange[],
  audits: readonly AuditEntry[],
): Promise<boolean> {
  const created = new Set(
    changes.flatMap((change) => change.kind === "create" ? [change.group.id] : []),
  );
  const deleted = new Set(
    changes.flatMap((change) => change.kind === "delete" ? [change.groupId] : []),
  );
  await dropRoutesOf(kv, created);
  await dropInvitesOf(kv, created);

  const op = kv.atomic();
  for (const change of changes) {
    const id = change.kind === "delete" ? change.groupId : change.group.id;
    op.check({
      key: groupKey(id),
      versionstamp: change.kind === "create" ? null : change.expected,
    });
    if (change.kind === "delete") op.delete(groupKey(id));
    else op.set(groupKey(id), change.group);
    if (change.kind !== "update") {
      op.delete(tenantKey(id)).delete(fragmentsKey(id)).delete(allowedTargetsKey(id));
    }
  }
  for (const audit of audits) addAuditEntry(op, audit);
  if (!(await op.commit()).ok) return false;

  await dropRoutesOf(kv, deleted);
  await dropInvitesOf(kv, deleted);
  return true;
}

/**
 * The route set with copies of `from`'s routes under `to`, right after the originals (and
 * without leftovers under `to`); null when that changes nothing.
 */
function withCopies(routes: readonly Route[], from: string, to: string): Route[] | null {
  const kept = routes.filter((route) => route.groupId !== to);
  const copies = kept.filter((route) => route.groupId === from).map((route) => ({
    ...route,
    groupId: to,
  }));
  if (copies.length === 0 && kept.length === routes.length) return null;
  const last = kept.findLastIndex((route) => route.groupId === from);
  return [...kept.slice(0, last + 1), ...copies, ...kept.slice(last + 1)];
}

interface MoveInput {
  from: string;
  to: string;
  name: string | undefined;
  routesVersionstamp: string | null;
  audit: (group: Group) => AuditEntry;
}

/**
 * The atomic part of a rename: record, secret, fragments, allowed targets and invites move
 * together.
 */
async function moveGroup(kv: Deno.Kv, input: MoveInput, now: number): Promise<Group | null> {
  const { from, to } = input;
  const [stored, secret, fragments, allowed] = await kv.getMany<
    [Group, GroupSecret, FragmentsRecord, AllowedTargetsRecord]
  >([groupKey(from), tenantKey(from), fragmentsKey(from), allowedTargetsKey(from)]);
  if (stored.value === null) return null;
  const invites: InviteEntry[] = await listInviteEntries(kv, from, now);
  const leftovers = await listInviteEntries(kv, to, now);
  const group: Group = { ...stored.value, id: to, name: input.name ?? stored.value.name };

  const op = kv.atomic()
    .check({ key: routesPointerKey(), versionstamp: input.routesVersionstamp })
    .check({ key: groupKey(to), versionstamp: null })
    .check(stored, secret, fragments, allowed)
    .delete(groupKey(from))
    .set(groupKey(to), group)
    .delete(tenantKey(to))
    .delete(fragmentsKey(to))
    .delete(allowedTargetsKey(to));
  if (secret.value) op.delete(tenantKey(from)).set(tenantKey(to), secret.value);
  if (fragments.value) {
    const moved: FragmentsRecord = {
      fragments: fragments.value.fragments.map((fragment) => ({ ...fragment, groupId: to })),
      updatedAt: now,
    };
    op.delete(fragmentsKey(from)).set(fragmentsKey(to), moved);
  }
  if (allowed.value) op.delete(allowedTargetsKey(from)).set(allowedTargetsKey(to), allowed.value);
  for (const { invite } of leftovers) addInviteDelete(op, invite);
  for (const entry of invites) {
    op.check({ key: inviteKey(entry.invite.token), versionstamp: entry.versionstamp });
    addInviteDelete(op, entry.invite);
    addInviteWrite(op, { ...entry.invite, groupId: to }, now);
  }
  addAuditEntry(op, input.audit(group));
  return (await op.commit()).ok ? group : null;
}

/**
 * Renames a group: its record (members, binding), routes, fragments, webhook secret and
 * pending invites move to `to`, and `from` is gone afterwards. `name` renames it too.
 * `audit` makes the entry committed with the move.
 */
export async function renameGroup(
  kv: Deno.Kv,
  rename: { from: string; to: string; name?: string },
  audit: (group: Group, routes: number) => AuditEntry,
  now: number = Date.now(),
): Promise<RenameResult> {
  const { from, to } = rename;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [source, target] = await kv.getMany<[Group, Group]>([groupKey(from), groupKey(to)]);
    if (source.value === null) return { ok: false, reason: "missing" };
    if (target.value !== null) return { ok: false, reason: "exists" };

    let routeCount = 0;
    const copied = await rewriteRoutes(kv, (routes) => {
      routeCount = routes.filter((route) => route.groupId === from).length;
      return withCopies(routes, from, to);
    });
    if (copied?.ok === false) {
      return copied.reason === "too_many" ? copied : { ok: false, reason: "conflict" };
    }
    const routesVersionstamp = copied?.versionstamp ?? (await getRoutes(kv)).versionstamp;

    const group = await moveGroup(kv, {
      from,
      to,
      name: rename.name,
      routesVersionstamp,
      audit: (moved) => audit(moved, routeCount),
    }, now);
    if (group) {
      await dropRoutesOf(kv, new Set([from]));
      return { ok: true, group, routes: routeCount };
    }
    await dropRoutesOf(kv, new Set([to]));
  }
  return { ok: false, reason: "conflict" };
}
