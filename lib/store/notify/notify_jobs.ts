/**
 * The job that finds who to notify personally about one accepted event
 * (`docs/personal.md`). Delivery queues it once per event, whatever number of groups the
 * event entered, naming one group that received it through its binding and a route of that
 * group (the buttons of a personal message act through them).
 */
import type { Kv } from "../backend/types.ts";
import { addJob } from "../delivery/jobs.ts";
import { notifyQueuedKey } from "../keys.ts";

/** Finds and holds the personal notifications of one event. */
export interface NotifyEventJob {
  type: "notify_event";
  eventId: string;
  groupId: string;
  /** A route of the group that fired on the event, or "" when none did. */
  routeId: string;
}

const MAX_ID_LENGTH = 200;
const fits = (value: unknown) => typeof value === "string" && value.length <= MAX_ID_LENGTH;

/** Whether a job message is a well-formed {@link NotifyEventJob}. */
export function isNotifyEventJob(message: unknown): message is NotifyEventJob {
  const job = message as Partial<NotifyEventJob> | null;
  return job?.type === "notify_event" && fits(job.eventId) && job.eventId !== "" &&
    fits(job.groupId) && fits(job.routeId);
}

/** How long the "queued" mark of an event is kept: a day (longer than any re-run). */
export const QUEUED_KEEP_MS = 24 * 60 * 60 * 1000;

/** Queues the event's personal-notification job unless it was queued already. */
export async function queuePersonalNotifications(
  kv: Kv,
  job: Omit<NotifyEventJob, "type">,
): Promise<void> {
  const marker = notifyQueuedKey(job.eventId);
  const op = kv.atomic().check({ key: marker, versionstamp: null })
    .set(marker, true, { expireIn: QUEUED_KEEP_MS });
  await addJob(op, { type: "notify_event", ...job } satisfies NotifyEventJob).commit();
}
