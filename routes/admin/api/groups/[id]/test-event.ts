import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { sendTestEvent } from "@/lib/admin/test_event.ts";
import { ingressUrl } from "@/lib/admin/webhook.ts";
import { ingressDeps } from "@/lib/ingress_deps.ts";
import { define } from "@/lib/state.ts";

/** A sample event sent through the group's own ingress, signed by the server. */
export const handler = define.handlers({
  POST: apiHandler(
    E.sendTestEvent,
    ({ ctx, principal, params, body }) =>
      sendTestEvent(
        ingressDeps(ctx.state),
        ingressUrl(ctx.state.config, params.id),
        principal,
        params.id,
        body,
      ),
  ),
});
