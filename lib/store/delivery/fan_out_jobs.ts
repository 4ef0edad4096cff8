/**
 * Deliver jobs: the jobs (lib/store/delivery/jobs.ts) that ask the delivery worker to fan accepted
 * events out, their parking and re-queuing, and the commits that finish a job's fan-outs.
 *
 * A job names one event (`{ type: "deliver", eventId }`: an event committed alone, a re-queued
 * one, and every job written before batches existed) or the events of one group commit
 * (`{ type: "deliver", eventIds }`), so a batch of accepted events costs the store's single
 * writer one job instead of one per event. Each event keeps its own pending fan-out
 * mark (lib/store/delivery/pending_fan_outs.ts) from its acceptance until its units all exist.
 *
 * A job that fails its last attempt is parked under `["undelivered_jobs", firstEventId]` (the
 * oldest event it names, so the order gate finds it ahead of every newer event), where the
 * sweep re-queues it: an accepted event is never dropped. Entries parked there by the KV queue
 * of earlier versions hold the bare job and are re-queued the same way.
 */
import type { AtomicOperation, Kv, KvKey } from "../backend/types.ts";
import {
  addEventRoutesWrites,
  EVENT_ROUTES_INDEX_BYTES,
  EVENT_ROUTES_MUTATIONS,
  type EventRoutes,
} from "./event_routes.ts";
import { fanOutPendingKey, undeliveredJobKey, undeliveredJobsPrefix } from "../keys.ts";
import { MAX_CHECKS_PER_COMMIT } from "../commit_limits.ts";
import { addJob } from "./jobs.ts";
import { listStalledFanOuts, markFanOutPending } from "./pending_fan_outs.ts";

/** The job asking the delivery worker to route one stored event. */
export interface DeliverJob {
  type: "deliver";
  eventId: string;
}

/** The job asking the delivery worker to route the events of one group commit. */
interface BatchDeliverJob {
  type: "deliver";
  eventIds: string[];
}

/** A deliver job of either shape: one event, or the events accepted in one commit. */
export type FanOutJob = DeliverJob | BatchDeliverJob;

/** The most events one job names (a group commit holds at most 32, a job the sweep writes 10). */
const MAX_JOB_EVENTS = 64;
/** Longest event id a job may name (event ids are 26-character ulids). */
const MAX_EVENT_ID_LENGTH = 64;

const isEventId = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_EVENT_ID_LENGTH;

/** True when a queue message is a single-event {@link DeliverJob}. */
export function isDeliverJob(message: unknown): message is DeliverJob {
  const job = message as Partial<DeliverJob> | null;
  return typeof job === "object" && job !== null && job.type === "deliver" &&
    typeof job.eventId === "string" && !("eventIds" in job);
}

/** True when a queue message is a {@link BatchDeliverJob} (1 to {@link MAX_JOB_EVENTS} ids). */
function isBatchDeliverJob(message: unknown): message is BatchDeliverJob {
  const job = message as Partial<BatchDeliverJob> | null;
  return typeof job === "object" && job !== null && job.type === "deliver" &&
    Array.isArray(job.eventIds) && job.eventIds.length > 0 &&
    job.eventIds.length <= MAX_JOB_EVENTS && job.eventIds.every(isEventId);
}

/** True when a queue message is a deliver job of either shape. */
export function isFanOutJob(message: unknown): message is FanOutJob {
  return isBatchDeliverJob(message) || isDeliverJob(message);
}

/** The events a job names, in the job's order. */
function eventIdsOf(job: FanOutJob): string[] {
  return "eventIds" in job ? job.eventIds : [job.eventId];
}

/** The job for `eventIds`: the single-event shape for one event, the batch shape for more. */
function deliverJobFor(eventIds: readonly string[]): FanOutJob {
  return eventIds.length === 1
    ? { type: "deliver", eventId: eventIds[0] }
    : { type: "deliver", eventIds: [...eventIds] };
}

/** Where a job is parked after its last attempt: under the oldest event it names. */
function parkingKey(eventIds: readonly string[]): KvKey {
  return undeliveredJobKey(eventIds.reduce((oldest, id) => id < oldest ? id : oldest));
}

/** Adds to `op` one job naming `eventIds`, due at once (marks are set by the caller). */
export function addDeliverJob(
  op: AtomicOperation,
  eventIds: readonly string[],
): AtomicOperation {
  return addJob(op, deliverJobFor(eventIds), { deadKey: parkingKey(eventIds) });
}

/** The deliver job a parking entry holds: a dead job's message, or a bare job parked by KV. */
function parkedJob(value: unknown): FanOutJob | null {
  if (isFanOutJob(value)) return value;
  const message = (value as { message?: unknown } | null)?.message;
  return isFanOutJob(message) ? message : null;
}

/**
 * Re-queues the parked deliver jobs (they failed their last attempt), so an accepted event is
 * never dropped. Each job is re-queued, the
 * fan-out of every event it names marked pending again as of `now` (so lanes hold newer units
 * back until it has run) and its parking entry removed in one atomic write; anything parked
 * that is not a deliver job is deleted. Returns how many jobs were re-queued.
 */
export async function requeueUndeliveredJobs(
  kv: Kv,
  now: number = Date.now(),
): Promise<number> {
  let count = 0;
  for await (const entry of kv.list<unknown>({ prefix: undeliveredJobsPrefix() })) {
    const job = parkedJob(entry.value);
    if (!job) {
      await kv.delete(entry.key);
      continue;
    }
    const eventIds = eventIdsOf(job);
    const op = addDeliverJob(kv.atomic().check(entry).delete(entry.key), eventIds);
    for (const eventId of eventIds) markFanOutPending(op, eventId, now);
    if ((await op.commit()).ok) count++;
  }
  return count;
}

/** Most stalled fan-outs one job re-queued by the sweep names: its commit checks each mark. */
const REQUEUE_BATCH = MAX_CHECKS_PER_COMMIT;

/**
 * Re-queues the fan-out of every event pending since before `now - stallMs` (its job is held
 * by a process that stopped, or lost): a fan-out may run twice, since it never makes a unit
 * twice. Up to {@link REQUEUE_BATCH} such events share one job, written in one commit that
 * checks their marks and renews them; if a mark changed meanwhile, those events are re-queued
 * one by one. Returns how many events were re-queued.
 */
export async function requeueStalledFanOuts(
  kv: Kv,
  now: number,
  stallMs: number,
): Promise<number> {
  const stalled = await listStalledFanOuts(kv, now - stallMs);
  let requeued = 0;
  for (let start = 0; start < stalled.length; start += REQUEUE_BATCH) {
    const marks = stalled.slice(start, start + REQUEUE_BATCH);
    if (await requeueMarks(kv, marks, now)) {
      requeued += marks.length;
      continue;
    }
    for (const mark of marks) if (await requeueMarks(kv, [mark], now)) requeued++;
  }
  return requeued;
}

async function requeueMarks(
  kv: Kv,
  marks: readonly { eventId: string; versionstamp: string }[],
  now: number,
): Promise<boolean> {
  const op = kv.atomic();
  for (const { eventId, versionstamp } of marks) {
    op.check({ key: fanOutPendingKey(eventId), versionstamp });
    markFanOutPending(op, eventId, now);
  }
  addDeliverJob(op, marks.map((mark) => mark.eventId));
  return (await op.commit()).ok;
}

/** An event whose units all exist: what it did in each group it entered. */
interface FinishedFanOut {
  eventId: string;
  records: readonly { internalId: string; record: EventRoutes }[];
}

/** Mutations one finishing commit holds (KV allows 1,000). */
const FINISH_MUTATIONS = 500;
/** Value bytes one finishing commit holds (KV allows 800 KiB). */
const FINISH_BYTES = 400_000;
/** Bytes counted for a mark's deletion or a job's writes. */
const SMALL_MUTATION_BYTES = 200;

/**
 * Ends the fan-outs of one job in as few commits as KV's limits allow: for each finished
 * event, its events-view records and the removal of its pending mark (never in a commit before
 * its records); for each event in `retry`, whose fan-out failed, a single-event job of its own
 * (its mark is kept, so it keeps its place in the order while that job runs; see
 * lib/delivery/fan_out.ts). An event with more records than one commit holds has them written
 * first, in commits of their own.
 */
export async function finishFanOuts(
  kv: Kv,
  finished: readonly FinishedFanOut[],
  retry: readonly string[],
  expireIn: number,
): Promise<void> {
  let op = kv.atomic();
  let mutations = 0;
  let bytes = 0;
  const flush = async () => {
    if (mutations === 0) return;
    const result = await op.commit();
    if (!result.ok) throw new Error("Cannot finish fan-outs: a commit without checks failed");
    op = kv.atomic();
    mutations = 0;
    bytes = 0;
  };
  const add = async (count: number, size: number) => {
    if (mutations + count > FINISH_MUTATIONS || bytes + size > FINISH_BYTES) await flush();
    mutations += count;
    bytes += size;
  };
  for (const eventId of retry) {
    await add(2, SMALL_MUTATION_BYTES);
    addDeliverJob(op, [eventId]);
  }
  for (const { eventId, records } of finished) {
    const sizes = records.map(({ record }) =>
      JSON.stringify(record).length + SMALL_MUTATION_BYTES + EVENT_ROUTES_INDEX_BYTES
    );
    const total = sizes.reduce((sum, size) => sum + size, SMALL_MUTATION_BYTES);
    const writes = records.length * EVENT_ROUTES_MUTATIONS + 1;
    const fitsOne = writes <= FINISH_MUTATIONS && total <= FINISH_BYTES;
    // Together in one commit when they fit one; else the records go first, over several.
    if (fitsOne) await add(writes, total);
    for (const [index, { internalId, record }] of records.entries()) {
      if (!fitsOne) await add(EVENT_ROUTES_MUTATIONS, sizes[index]);
      addEventRoutesWrites(op, internalId, record, expireIn);
    }
    if (!fitsOne) await add(1, SMALL_MUTATION_BYTES);
    op.delete(fanOutPendingKey(eventId));
  }
  await flush();
}
