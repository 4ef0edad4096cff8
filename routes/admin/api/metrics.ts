import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { queryMetrics } from "@/lib/admin/metrics.ts";
import { define } from "@/lib/state.ts";

/** Delivery statistics. */
export const handler = define.handlers({
  GET: apiHandler(E.metrics, ({ kv, principal, query }) => queryMetrics(kv, principal, query)),
});
