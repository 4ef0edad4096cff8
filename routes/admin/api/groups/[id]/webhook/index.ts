import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { describeWebhook, disableWebhook } from "@/lib/admin/webhook.ts";
import { define } from "@/lib/state.ts";

/** A group's ingress: its state; switching it off. */
export const handler = define.handlers({
  GET: apiHandler(
    E.getWebhook,
    ({ kv, ctx, principal, params }) => describeWebhook(kv, ctx.state.config, principal, params.id),
  ),
  DELETE: apiHandler(
    E.deleteWebhook,
    ({ kv, principal, params }) => disableWebhook(kv, principal, params.id),
  ),
});
