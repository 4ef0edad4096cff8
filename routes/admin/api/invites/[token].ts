import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { revokeGroupInvite } from "@/lib/admin/invites.ts";
import { define } from "@/lib/state.ts";

/** Revokes a pending invite. */
export const handler = define.handlers({
  DELETE: apiHandler(
    E.revokeInvite,
    ({ kv, principal, params }) => revokeGroupInvite(kv, principal, params.token),
  ),
});
