import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { getGroupReplay } from "@/lib/admin/replays.ts";
import { define } from "@/lib/state.ts";

/** One bulk replay and its progress. */
export const handler = define.handlers({
  GET: apiHandler(
    E.getReplay,
    ({ kv, principal, params }) => getGroupReplay(kv, principal, params.id, params.replayId),
  ),
});
