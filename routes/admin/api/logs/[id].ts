import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { getLog } from "@/lib/admin/logs.ts";
import { define } from "@/lib/state.ts";

/** One send log. */
export const handler = define.handlers({
  GET: apiHandler(E.getLog, ({ kv, principal, params }) => getLog(kv, principal, params.id)),
});
