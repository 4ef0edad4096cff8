/**
 * "Send again through the current routes": a stored event of a group is accepted again as a
 * new event of that group only, with the same provider, kind, headers and exact payload bytes,
 * so the group's routes as they are now judge it and their messages go out. The original event
 * and its send logs stay as they were. Needs the right to edit the group; audited
 * (`event.resend`, naming both events).
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { newAuditEntry, writeAuditEntry } from "../store/telemetry/audit.ts";
import { getEventRoutes } from "../store/delivery/event_routes.ts";
import { acceptEventAgain } from "../delivery/accept_again.ts";
import { actorOf, requireGroupEntry } from "./guards.ts";

/** What sending an event again gave: the new event's id. */
interface Resent {
  ok: true;
  eventId: string;
}

/**
 * `POST /admin/api/groups/:id/events/:eventId/resend`: accepts the group's event `eventId`
 * again as a new event of the group (404 when the group has no record of it, 409 when its
 * payload is past retention, 403 without the right to edit the group).
 */
export async function resendGroupEvent(
  kv: Kv,
  principal: Principal,
  groupId: string,
  eventId: string,
): Promise<Resent> {
  const entry = await requireGroupEntry(kv, principal, groupId, "edit");
  const record = await getEventRoutes(kv, entry.internalId, eventId);
  if (record === null) throw new HttpError(404, `Group ${groupId} has no event ${eventId}`);
  const now = Date.now();
  const outcome = await acceptEventAgain(
    kv,
    eventId,
    { groupId, internalId: entry.internalId },
    `resend-${crypto.randomUUID()}`,
    now,
  );
  if (outcome.status === "expired") {
    throw new HttpError(409, "The event's payload is past retention: it cannot be sent again");
  }
  if (outcome.status !== "accepted") throw new Error(`Cannot accept event ${eventId} again`);
  await writeAuditEntry(
    kv,
    newAuditEntry({
      actor: actorOf(principal),
      action: "event.resend",
      groupId,
      target: `event:${eventId}`,
      detail: { event: outcome.eventId },
    }, now),
  );
  return { ok: true, eventId: outcome.eventId };
}
