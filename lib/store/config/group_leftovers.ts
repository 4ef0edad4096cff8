/**
 * What deleted groups leave behind. Deleting a group clears its configuration
 * (`group_admin.ts`), but the data its use built up under its internal id and that never
 * expires (the families of {@link groupDataRoots}: open pull request and issue indexes, target
 * health, the audit index, its reminders) stays. The delivery sweep removes it a bounded amount
 * at a time ({@link sweepGroupLeftovers}):
 *
 * - each family is walked in key order, one short read per internal id (it jumps over the id's
 *   keys to the next id), going on from where the last call stopped;
 * - an id that no group of the current set has is a deleted group's: internal ids are never
 *   given to another group, a renamed group keeps its own, and a group created again with a
 *   deleted group's id gets a fresh one (`group_set.ts`; a group stored before internal ids has
 *   its group id as internal id, which a later group of that id never gets). Its keys (with the
 *   reminders its reminder list names) are deleted in chunks;
 * - every delete commit is checked against the version of the group set the ids were judged by,
 *   so a group created meanwhile (a fresh id that set lacks) is never touched: the commit fails
 *   and the set is read again. Deletes are idempotent, so instances taking turns at the sweep, or
 *   a walk started over after a restart, do no harm.
 */
import type { Kv, KvEntry, KvKey } from "../backend/types.ts";
import { groupDataRoots, groupsPointerKey, reminderKey } from "../keys.ts";
import { type GroupSet, readGroupSetCached } from "./group_set.ts";

/** Where the walk over the families stands, kept by the caller between calls. */
interface LeftoverScan {
  /** The family being walked (an index into {@link groupDataRoots}). */
  family: number;
  /** The last internal id passed in that family; null: from the family's start. */
  after: string | null;
  /** When the next walk may start, once one has gone through every family (Unix ms). */
  restUntil: number;
}

/** A walk from the start, due at once. */
export function newLeftoverScan(): LeftoverScan {
  return { family: 0, after: null, restUntil: 0 };
}

/** Time between the end of one walk and the start of the next. */
const WALK_REST_MS = 10 * 60_000;
/** Most ids one call looks up. */
const MAX_LOOKUPS = 64;
/** Most keys one call deletes. */
const MAX_REMOVED_PER_SWEEP = 500;
/** Keys (and the reminders a reminder list names) deleted per commit: ≤ 2 KiB each, 1 check. */
const CHUNK = 100;
/** Reminders a group's list holds at most when written (lib/delivery/reminder_input.ts is 10). */
const MAX_LISTED_REMINDERS = 50;

/** The check that the group set is still the version `set` was read at. */
export const groupsUnchanged = (set: GroupSet) => ({
  key: groupsPointerKey(),
  versionstamp: set.version,
});

/** What acting on one deleted group's keys did: how many, and whether none is left; or "changed"
 * when the group set (or a key acted on) changed since it was read, and nothing was written. */
export type LeftoverChunk = { count: number; done: boolean } | "changed";

/** A walk's place in one family and what it did in this call, updated by {@link walkDeletedIds}. */
export interface WalkStep {
  /** The last internal id passed; null: from the family's start. */
  after: string | null;
  lookups: number;
  /** Keys or units handled. */
  count: number;
}

/**
 * Walks the internal ids of the family `root` after `step.after`, and for each id no group of the
 * current set has, calls `act` with the set it was judged by and how many it may still handle;
 * a chunk that finds the set changed has it read again. Stops after `limits.lookups` lookups or
 * `limits.count` handled (counted in `step`); true when it reached the family's end.
 */
export async function walkDeletedIds(
  kv: Kv,
  root: KvKey,
  step: WalkStep,
  limits: { lookups: number; count: number },
  act: (internalId: string, set: GroupSet, limit: number) => Promise<LeftoverChunk>,
): Promise<boolean> {
  let set = await readGroupSetCached(kv);
  let present = new Set(set.entries.map((entry) => entry.internalId));
  while (step.lookups < limits.lookups && step.count < limits.count) {
    step.lookups++;
    const id = await nextInternalId(kv, root, step.after);
    if (id === null) return true;
    if (present.has(id)) {
      step.after = id;
      continue;
    }
    const outcome = await act(id, set, limits.count - step.count);
    if (outcome === "changed") {
      set = await readGroupSetCached(kv);
      present = new Set(set.entries.map((entry) => entry.internalId));
      continue;
    }
    step.count += outcome.count;
    if (outcome.done) step.after = id; // else its next chunk comes next (or in the next call)
  }
  return false;
}

/**
 * The first internal id of the family `root` (keys `[...root, <internal id>, …]`) after `after`,
 * or null when there is none: one short read, jumping over the keys of `after`.
 */
export async function nextInternalId(
  kv: Kv,
  root: KvKey,
  after: string | null,
): Promise<string | null> {
  const selector = after === null
    ? { prefix: root }
    : { prefix: root, start: [...root, `${after}\0`] };
  for await (const entry of kv.list(selector, { limit: 1 })) {
    const id = entry.key[root.length];
    return typeof id === "string" ? id : null;
  }
  return null;
}

/** The keys of reminders a group's reminder list names (other entries name none). */
function remindersNamed(entry: KvEntry<unknown>, root: KvKey): KvKey[] {
  if (root[0] !== "reminder_owners" || entry.key.length !== root.length + 1) return [];
  const ids = (entry.value as { ids?: unknown } | null)?.ids;
  if (!Array.isArray(ids)) return [];
  return ids.slice(0, MAX_LISTED_REMINDERS).filter((id) => typeof id === "string")
    .map((id) => reminderKey(id));
}

/**
 * Deletes up to `limit` keys of the id `internalId` in the family `root` (its own key and those
 * under it), in one commit checked against `set`. Answers how many, and whether none is left;
 * "changed" when a group was written since `set` was read (nothing deleted then).
 */
async function removeChunk(
  kv: Kv,
  root: KvKey,
  internalId: string,
  set: GroupSet,
  limit: number,
): Promise<LeftoverChunk> {
  const own = { start: [...root, internalId], end: [...root, `${internalId}\0`] };
  const wanted = Math.min(CHUNK, limit);
  const entries = await Array.fromAsync(kv.list(own, { limit: wanted }));
  if (entries.length === 0) return { count: 0, done: true };
  const op = kv.atomic().check(groupsUnchanged(set));
  for (const entry of entries) {
    op.delete(entry.key);
    for (const key of remindersNamed(entry, root)) op.delete(key);
  }
  if (!(await op.commit()).ok) return "changed";
  return { count: entries.length, done: entries.length < wanted };
}

/**
 * Goes on with the walk `scan` over the families of {@link groupDataRoots}: deletes the keys of
 * internal ids no current group has, at most {@link MAX_REMOVED_PER_SWEEP} keys after at most
 * {@link MAX_LOOKUPS} lookups, and answers how many it deleted. Once a walk has been through
 * every family the next starts {@link WALK_REST_MS} later.
 */
export async function sweepGroupLeftovers(
  kv: Kv,
  scan: LeftoverScan,
  now: number,
): Promise<number> {
  if (scan.family === 0 && scan.after === null && now < scan.restUntil) return 0;
  const roots = groupDataRoots();
  const step: WalkStep = { after: scan.after, lookups: 0, count: 0 };
  const limits = { lookups: MAX_LOOKUPS, count: MAX_REMOVED_PER_SWEEP };
  while (scan.family < roots.length) {
    const root = roots[scan.family];
    const ended = await walkDeletedIds(
      kv,
      root,
      step,
      limits,
      (id, set, limit) => removeChunk(kv, root, id, set, limit),
    );
    scan.after = step.after;
    if (!ended) return step.count;
    scan.family++;
    scan.after = step.after = null;
  }
  Object.assign(scan, newLeftoverScan(), { restUntil: now + WALK_REST_MS });
  return step.count;
}
