import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listGroupEvents } from "@/lib/admin/events.ts";
import { define } from "@/lib/state.ts";

/** A group's recent events, newest first. */
export const handler = define.handlers({
  GET: apiHandler(
    E.listGroupEvents,
    ({ kv, principal, params, query }) => listGroupEvents(kv, principal, params.id, query),
  ),
});
