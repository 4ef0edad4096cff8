import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { regenerateWebhook } from "@/lib/admin/webhook.ts";
import { define } from "@/lib/state.ts";

/** A new secret for a group's ingress, shown once. */
export const handler = define.handlers({
  POST: apiHandler(
    E.regenerateWebhook,
    ({ kv, ctx, principal, params }) =>
      regenerateWebhook(kv, ctx.state.config, principal, params.id),
  ),
});
