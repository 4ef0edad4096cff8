import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { listGlobalRejections } from "@/lib/admin/rejections.ts";
import { define } from "@/lib/state.ts";

/** The webhook requests refused at the instance-wide ingress or for unknown groups. */
export const handler = define.handlers({
  GET: apiHandler(E.listRejections, ({ kv, principal }) => listGlobalRejections(kv, principal)),
});
