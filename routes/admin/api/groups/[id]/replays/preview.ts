import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { previewGroupReplay } from "@/lib/admin/replays.ts";
import { define } from "@/lib/state.ts";

/** What a bulk replay of a filter would select and send. */
export const handler = define.handlers({
  GET: apiHandler(
    E.previewReplay,
    ({ kv, principal, params, query }) => previewGroupReplay(kv, principal, params.id, query),
  ),
});
