import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { resumeGroupTarget } from "@/lib/admin/target_health.ts";
import { define } from "@/lib/state.ts";

/** Sends what a paused target of the group held, in order. */
export const handler = define.handlers({
  POST: apiHandler(
    E.resumeTarget,
    ({ kv, principal, params, body }) => resumeGroupTarget(kv, principal, params.id, body.target),
  ),
});
