import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { getGroupEvent } from "@/lib/admin/events.ts";
import { define } from "@/lib/state.ts";

/** One event of a group, explained against each of the group's routes. */
export const handler = define.handlers({
  GET: apiHandler(
    E.getGroupEvent,
    ({ kv, principal, params }) => getGroupEvent(kv, principal, params.id, params.eventId),
  ),
});
