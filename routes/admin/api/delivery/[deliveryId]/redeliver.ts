import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { redeliverDelivery } from "@/lib/admin/logs.ts";
import { define } from "@/lib/state.ts";

/** Sends a delivery's failed units again. */
export const handler = define.handlers({
  POST: apiHandler(
    E.redeliver,
    ({ kv, ctx, principal, params }) =>
      redeliverDelivery(kv, ctx.state.config, principal, params.deliveryId),
  ),
});
