import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { regenerateWebhook } from "@/lib/admin/webhook.ts";
import { define } from "@/lib/state.ts";

/** A new secret for a group's ingress, shown once; the old one works for a grace period. */
export const handler = define.handlers({
  POST: apiHandler(
    E.regenerateWebhook,
    ({ kv, ctx, principal, params, body }) =>
      regenerateWebhook(kv, ctx.state.config, principal, params.id, body),
  ),
});
