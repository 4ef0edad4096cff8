import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { resendGroupEvent } from "@/lib/admin/event_resend.ts";
import { define } from "@/lib/state.ts";

/** Accepts one of the group's events again, through the current routes. */
export const handler = define.handlers({
  POST: apiHandler(
    E.resendGroupEvent,
    ({ kv, principal, params }) => resendGroupEvent(kv, principal, params.id, params.eventId),
  ),
});
