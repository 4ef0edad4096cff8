import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { discardGroupTarget } from "@/lib/admin/target_health.ts";
import { define } from "@/lib/state.ts";

/** Discards what a paused target of the group held, with a record. */
export const handler = define.handlers({
  POST: apiHandler(
    E.discardTarget,
    ({ kv, ctx, principal, params, body }) =>
      discardGroupTarget(kv, ctx.state.config, principal, params.id, body.target),
  ),
});
