import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { getDelivery } from "@/lib/admin/logs.ts";
import { define } from "@/lib/state.ts";

/** Every send log of one delivery. */
export const handler = define.handlers({
  GET: apiHandler(
    E.getDelivery,
    ({ kv, principal, params }) => getDelivery(kv, principal, params.deliveryId),
  ),
});
