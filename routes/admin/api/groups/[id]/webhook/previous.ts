import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { revokePreviousWebhookSecret } from "@/lib/admin/webhook.ts";
import { define } from "@/lib/state.ts";

/** The replaced secret of a group's ingress, revoked before its grace period ends. */
export const handler = define.handlers({
  DELETE: apiHandler(
    E.revokePreviousWebhookSecret,
    ({ kv, principal, params }) => revokePreviousWebhookSecret(kv, principal, params.id),
  ),
});
