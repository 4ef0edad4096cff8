/**
 * The queue side of an accepted event. Matching and sending come later; for
 * now a job loads its event and logs it.
 */
import { type DeliverJob, loadEvent } from "../store/events.ts";
import type { ForgeEvent } from "../types.ts";
import type { IngressLog } from "./handle.ts";

/** Loads the job's event and logs it; returns the event, or null when it is gone. */
export async function handleDeliverJob(
  kv: Deno.Kv,
  job: DeliverJob,
  log: IngressLog,
): Promise<ForgeEvent | null> {
  const event = await loadEvent(kv, job.eventId);
  if (!event) {
    log("warn", "deliver job for an unknown event", { eventId: job.eventId });
    return null;
  }
  log("info", "event ready for delivery", {
    eventId: event.id,
    provider: event.provider,
    kind: event.kind,
    action: event.action,
    scope: event.scope,
  });
  return event;
}
