/**
 * Accepting a stored event again as a new event of one group: the same provider, kind, action,
 * headers and exact payload bytes, scoped to that group only, so the group's routes as they are
 * now judge it. The original event and its send logs stay as they were. Used by "send again
 * through the current routes" (one event) and by bulk replays (lib/delivery/bulk_replay.ts).
 */
import type { Kv } from "../store/backend/types.ts";
import { loadEvent, loadEventBody, saveEvent } from "../store/delivery/events.ts";

/** What accepting again gave: the new event, a repeat of `deliveryId`, or a payload past retention. */
type AcceptedAgain =
  | { status: "accepted"; eventId: string }
  | { status: "duplicate" }
  | { status: "expired" };

/**
 * Accepts event `eventId` again for the group `group` (its id and internal id: a group created
 * later with the id gets none of it) under `deliveryId` (a repeat of that delivery id within the
 * dedup window is answered `duplicate` and accepts nothing).
 */
export async function acceptEventAgain(
  kv: Kv,
  eventId: string,
  group: { groupId: string; internalId: string },
  deliveryId: string,
  now: number,
): Promise<AcceptedAgain> {
  const [event, body] = await Promise.all([loadEvent(kv, eventId), loadEventBody(kv, eventId)]);
  if (event === null || body === null) return { status: "expired" };
  const outcome = await saveEvent(kv, {
    provider: event.provider,
    kind: event.kind,
    ...(event.action === undefined ? {} : { action: event.action }),
    deliveryId,
    scope: { type: "group", ...group },
    receivedAt: now,
    headers: event.headers,
    body,
  });
  if (outcome.status === "accepted") return { status: "accepted", eventId: outcome.eventId };
  if (outcome.status === "duplicate") return { status: "duplicate" };
  throw new Error(`Cannot accept event ${eventId} again`);
}
