/**
 * Units held for a deleted group's paused target. A held unit (`target_health.ts`) waits out of
 * its lane, `retrying`, until a person resumes or discards its target; once its group is deleted
 * nobody can, so the delivery sweep ends it ({@link endDeletedGroupsHeld}): its send log becomes
 * `failed` with {@link GROUP_DELETED} as its error (counted like any final outcome) and its held
 * entry goes. Nothing is sent for it.
 *
 * The walk goes over `["target_held", <internal id>, …]` one internal id at a time, as the sweep
 * of other leftovers does (`lib/store/config/group_leftovers.ts`): an id no group of the current
 * set has is a deleted group's for good. Each commit ends at most {@link CHUNK} units and is
 * checked against the group set's version the id was judged by (a group created meanwhile makes
 * it fail, and the set is read again) and against each unit's held entry and send log (so a
 * unit a lane or a person changed meanwhile is read again), within the store's per-commit limits
 * (`commit_limits.ts`). A crash between commits leaves the rest held: the next walk (in this
 * process or another) finds them and goes on.
 */
import type { Kv } from "../backend/types.ts";
import { MAX_CHECKS_PER_COMMIT } from "../commit_limits.ts";
import { heldUnitsRoot, sendLogKey } from "../keys.ts";
import type { GroupSet } from "../config/group_set.ts";
import {
  groupsUnchanged,
  type LeftoverChunk,
  walkDeletedIds,
  type WalkStep,
} from "../config/group_leftovers.ts";
import { countOutcome } from "../telemetry/metrics.ts";
import { putSendLog, type SendLog } from "./send_logs.ts";

/** The error a held unit of a deleted group ends with. */
export const GROUP_DELETED = "group deleted while its target was paused; nothing was sent";

/** Held units ended per commit: two checks each (held entry, send log), one for the group set. */
const CHUNK = Math.floor((MAX_CHECKS_PER_COMMIT - 1) / 2);
/** Most ids one call looks up (and most commits it tries). */
const MAX_LOOKUPS = 64;
/** Most held units one call ends. */
const MAX_ENDED_PER_SWEEP = 100;
/** Time between the end of one walk and the start of the next. */
const WALK_REST_MS = 10 * 60_000;

/** Where the walk stands, kept by the caller between calls. */
interface HeldScan {
  /** The last internal id passed; null: from the start. */
  after: string | null;
  /** When the next walk may start, once one went through every id (Unix ms). */
  restUntil: number;
}

/** A walk from the start, due at once. */
export function newHeldScan(): HeldScan {
  return { after: null, restUntil: 0 };
}

/** What this walk reads of a held entry (`target_health.ts` writes it): the unit's log id. */
interface HeldUnit {
  logId: string;
}

/**
 * Ends up to `limit` (at most {@link CHUNK}) held units of the deleted group `internalId` in one
 * commit checked against `set`. Answers how many it ended and whether none is left; "changed"
 * when the group set or one of the units changed since they were read (nothing written then).
 */
async function endChunk(
  kv: Kv,
  internalId: string,
  set: GroupSet,
  limit: number,
  now: number,
  retentionMs: number,
): Promise<LeftoverChunk> {
  const wanted = Math.min(CHUNK, limit);
  const prefix = [...heldUnitsRoot(), internalId];
  const held = await Array.fromAsync(kv.list<HeldUnit>({ prefix }, { limit: wanted }));
  if (held.length === 0) return { count: 0, done: true };
  const logs = await kv.getMany<SendLog[]>(held.map((entry) => sendLogKey(entry.value.logId)));
  const op = kv.atomic().check(groupsUnchanged(set));
  let ended = 0;
  held.forEach((entry, index) => {
    const log = logs[index];
    op.check(entry).check(log).delete(entry.key);
    if (log.value?.status !== "retrying") return; // resumed and sent meanwhile, or expired
    const { nextAttemptAt: _due, ...rest } = log.value;
    const next: SendLog = { ...rest, status: "failed", error: GROUP_DELETED, updatedAt: now };
    putSendLog(op, next, log.value, retentionMs);
    countOutcome(op, next, now);
    ended++;
  });
  if (!(await op.commit()).ok) return "changed";
  return { count: ended, done: held.length < wanted };
}

/**
 * Goes on with the walk `scan` over the held units: ends those of internal ids no current group
 * has, at most {@link MAX_ENDED_PER_SWEEP} after at most {@link MAX_LOOKUPS} lookups, and answers
 * how many it ended. Once a walk has been through every id the next starts
 * {@link WALK_REST_MS} later.
 */
export async function endDeletedGroupsHeld(
  kv: Kv,
  scan: HeldScan,
  now: number,
  retentionMs: number,
): Promise<number> {
  if (scan.after === null && now < scan.restUntil) return 0;
  const step: WalkStep = { after: scan.after, lookups: 0, count: 0 };
  const ended = await walkDeletedIds(
    kv,
    heldUnitsRoot(),
    step,
    { lookups: MAX_LOOKUPS, count: MAX_ENDED_PER_SWEEP },
    (id, set, limit) => endChunk(kv, id, set, limit, now, retentionMs),
  );
  if (ended) Object.assign(scan, newHeldScan(), { restUntil: now + WALK_REST_MS });
  else scan.after = step.after;
  return step.count;
}
