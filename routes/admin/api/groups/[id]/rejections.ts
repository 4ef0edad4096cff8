import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listGroupRejections } from "@/lib/admin/rejections.ts";
import { define } from "@/lib/state.ts";

/** The webhook requests the group's ingress refused. */
export const handler = define.handlers({
  GET: apiHandler(
    E.listGroupRejections,
    ({ kv, principal, params }) => listGroupRejections(kv, principal, params.id),
  ),
});
