/**
 * Per-target order across concurrency and crashes. Lane entries sort by event
 * id, but a unit can only sort ahead of units that exist: an older event whose
 * deliver job has not finished (still queued, running, or re-queued after a
 * crash) would add its unit after newer ones were sent. So a lane does not
 * send a unit while an older event's fan-out is pending.
 *
 * A pending fan-out holds lanes back for {@link ORDER_WAIT_MS} after the event
 * was accepted (or its job re-queued). For that long after this worker
 * started, every pending fan-out and every parked deliver job (one the KV
 * queue gave up on, until start-up upkeep re-queues it) holds lanes back too:
 * that covers jobs that were in flight or parked when the previous process
 * stopped (the KV queue hands in-flight ones out again within seconds to about
 * a minute). A deliver job that fails stops holding lanes back at once (it
 * clears its mark), and so does one stuck past that time: one event's trouble
 * never stalls every target, at the price of its own units arriving after
 * newer ones once it does run.
 *
 * The parked jobs are read before the pending marks: re-queuing a parked job
 * deletes it and marks its fan-out pending in one commit, and the two reads are
 * not one snapshot, so only in this order does a re-queue landing between them
 * still hold the lane (seen as parked, or else as pending).
 */
import { hasOlderFanOutPending, hasOlderParkedJob } from "../store/delivery/pending_fan_outs.ts";
import type { DeliveryContext } from "./context.ts";

/** How long a pending fan-out holds newer units back. */
export const ORDER_WAIT_MS = 2 * 60 * 1000;

/** How long a lane held back waits before it looks again. */
export const ORDER_POLL_MS = 200;

/** True when a unit of `eventId` must wait for an older event's fan-out. */
export async function mustWaitForOlderEvents(
  ctx: DeliveryContext,
  eventId: string,
): Promise<boolean> {
  const cutoff = ctx.now() - ORDER_WAIT_MS;
  const justStarted = ctx.startedAt > cutoff;
  return (justStarted && await hasOlderParkedJob(ctx.kv, eventId)) ||
    await hasOlderFanOutPending(ctx.kv, eventId, justStarted ? -Infinity : cutoff);
}
