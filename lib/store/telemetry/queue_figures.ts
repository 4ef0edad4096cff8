/**
 * How much delivery work is waiting, for `/health` and `/metrics`: units not yet final (the
 * `retrying` status index), events whose fan-out is pending, jobs that failed their last attempt
 * (parked deliver jobs and dead jobs, lib/store/delivery/jobs.ts), and when the oldest waiting event was
 * accepted. Counting reads keys only and stops at
 * {@link QUEUE_COUNT_LIMIT} per collection, so a scrape stays cheap however long the backlog.
 */
import type { Kv, KvKey, KvKeyPart } from "../backend/types.ts";
import { acceptedAt } from "./latency.ts";
import {
  deadJobsPrefix,
  fanOutPendingPrefix,
  sendLogByStatusPrefix,
  undeliveredJobsPrefix,
} from "../keys.ts";

/** Most entries of one collection a count reads; a larger backlog is reported as this. */
const QUEUE_COUNT_LIMIT = 10_000;

/** The waiting work. */
export interface QueueFigures {
  /** Delivery units not yet final (queued, in flight, or waiting for a retry). */
  units: number;
  /** Accepted events whose units are not all created yet. */
  pendingFanOuts: number;
  /**
   * Jobs that failed their last attempt: parked deliver jobs (waiting to be re-queued by the
   * sweep) and dead jobs of other kinds (kept with their reason).
   */
  parkedJobs: number;
  /** True when a count reached {@link QUEUE_COUNT_LIMIT} (the figure is a lower bound). */
  capped: boolean;
  /** When the oldest waiting event was accepted (Unix ms); absent when nothing waits. */
  oldestPendingAt?: number;
}

/** Counts the keys under `prefix` (up to the limit) and returns the first key's last part. */
async function countKeys(kv: Kv, prefix: KvKey) {
  let count = 0;
  let first: KvKeyPart | undefined;
  for await (const entry of kv.list({ prefix }, { limit: QUEUE_COUNT_LIMIT })) {
    if (count === 0) first = entry.key[entry.key.length - 1];
    count++;
  }
  return { count, first };
}

/** The time an id starting with an event's ulid (an event id or a unit's log id) was accepted. */
function acceptedTimeOf(id: KvKeyPart | undefined, fallback: number): number | undefined {
  return typeof id === "string" ? acceptedAt(id.slice(0, 26), fallback) : undefined;
}

/** Reads the queue figures; ids sort by acceptance time, so each oldest is the first key. */
export async function readQueueFigures(kv: Kv, now = Date.now()): Promise<QueueFigures> {
  const [units, fanOuts, parked, dead] = await Promise.all([
    countKeys(kv, sendLogByStatusPrefix("retrying")),
    countKeys(kv, fanOutPendingPrefix()),
    countKeys(kv, undeliveredJobsPrefix()),
    countKeys(kv, deadJobsPrefix()),
  ]);
  const oldest = [units.first, fanOuts.first, parked.first]
    .map((id) => acceptedTimeOf(id, now))
    .filter((at): at is number => at !== undefined);
  const figures: QueueFigures = {
    units: units.count,
    pendingFanOuts: fanOuts.count,
    parkedJobs: parked.count + dead.count,
    capped: [units, fanOuts, parked, dead].some((part) => part.count >= QUEUE_COUNT_LIMIT),
  };
  if (oldest.length > 0) figures.oldestPendingAt = Math.min(...oldest);
  return figures;
}
