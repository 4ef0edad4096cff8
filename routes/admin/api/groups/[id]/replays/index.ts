import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listGroupReplays, startGroupReplay } from "@/lib/admin/replays.ts";
import { define } from "@/lib/state.ts";

/** The group's bulk replays; starting one. */
export const handler = define.handlers({
  GET: apiHandler(
    E.listReplays,
    ({ kv, principal, params }) => listGroupReplays(kv, principal, params.id),
  ),
  POST: apiHandler(
    E.startReplay,
    ({ kv, principal, params, body }) => startGroupReplay(kv, principal, params.id, body),
  ),
});
