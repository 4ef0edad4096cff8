/**
 * Pending fan-outs: `["fan_out_pending", eventId]` exists from the commit that
 * accepts an event until its deliver job has created all its units. Lanes read
 * them to keep per-target order: a unit is not sent while an older event may
 * still add a unit ahead of it (its deliver job is waiting, running, or
 * re-queued after a crash). Every event has its own mark, also when one job
 * names the events of a whole group commit (lib/store/delivery/fan_out_jobs.ts). A
 * single-event deliver job that fails clears its mark, so it holds no lane
 * back while the job worker retries it; a job that failed its last attempt is
 * parked, and re-queuing it sets the marks again.
 */
import type { AtomicOperation, Kv } from "../backend/types.ts";
import {
  fanOutPendingKey,
  fanOutPendingPrefix,
  undeliveredJobKey,
  undeliveredJobsPrefix,
} from "../keys.ts";
import { readIds } from "../id_range.ts";

/** A pending fan-out's record. */
interface PendingFanOut {
  /** When the event was accepted, or its deliver job re-queued (Unix ms). */
  since: number;
}

/** A mark never outlives the event it belongs to (kept 30 days). */
export const MARK_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** Most older pending fan-outs one check reads. */
const SCAN_LIMIT = 100;

/** Adds to `op` the mark of an event accepted (or its job re-queued) at `now`. */
export function markFanOutPending(
  op: AtomicOperation,
  eventId: string,
  now: number,
): AtomicOperation {
  return op.set(fanOutPendingKey(eventId), { since: now } satisfies PendingFanOut, {
    expireIn: MARK_LIFETIME_MS,
  });
}

/** Clears the mark: the event's units all exist (or it has none), or its deliver job failed. */
export async function clearFanOutPending(kv: Kv, eventId: string): Promise<void> {
  await kv.delete(fanOutPendingKey(eventId));
}

/**
 * True when an event accepted before `eventId` still has its fan-out pending,
 * marked after `liveAfter` (Unix ms); older marks belong to deliver jobs that
 * are stuck and no longer hold lanes back. Reads at most {@link SCAN_LIMIT}
 * marks, oldest first.
 */
export async function hasOlderFanOutPending(
  kv: Kv,
  eventId: string,
  liveAfter: number,
): Promise<boolean> {
  const older = kv.list<PendingFanOut>(
    { prefix: fanOutPendingPrefix(), end: fanOutPendingKey(eventId) },
    { limit: SCAN_LIMIT },
  );
  for await (const mark of older) {
    if (mark.value.since > liveAfter) return true;
  }
  return false;
}

/**
 * True when a deliver job of an event accepted before `eventId` is parked (it
 * failed its last attempt; the sweep re-queues it and marks its fan-out
 * pending again).
 */
export async function hasOlderParkedJob(kv: Kv, eventId: string): Promise<boolean> {
  const older = kv.list({ prefix: undeliveredJobsPrefix(), end: undeliveredJobKey(eventId) }, {
    limit: 1,
  });
  for await (const _ of older) return true;
  return false;
}

/** Most stalled fan-outs one sweep re-queues. */
const REQUEUE_LIMIT = 100;

/**
 * The pending fan-outs marked at or before `before` (Unix ms), oldest first, at most
 * {@link REQUEUE_LIMIT}, each with its mark's versionstamp (lib/store/delivery/fan_out_jobs.ts
 * re-queues them).
 */
export async function listStalledFanOuts(
  kv: Kv,
  before: number,
): Promise<{ eventId: string; versionstamp: string }[]> {
  const stalled: { eventId: string; versionstamp: string }[] = [];
  const marks = kv.list<PendingFanOut>({ prefix: fanOutPendingPrefix() }, {
    limit: REQUEUE_LIMIT,
  });
  for await (const mark of marks) {
    if (mark.value.since > before) continue;
    stalled.push({ eventId: String(mark.key[1]), versionstamp: mark.versionstamp });
  }
  return stalled;
}

/** Which of `eventIds` still have their fan-out pending (read as one range when they sort close). */
export async function pendingAmong(
  kv: Kv,
  eventIds: readonly string[],
): Promise<Set<string>> {
  const marks = await readIds(kv, fanOutPendingPrefix(), eventIds);
  return new Set(eventIds.filter((_, index) => marks[index].versionstamp !== null));
}
