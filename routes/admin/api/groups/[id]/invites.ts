import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { createGroupInvite, listGroupInvites } from "@/lib/admin/invites.ts";
import { define } from "@/lib/state.ts";

/** A group's pending invites; creating one. */
export const handler = define.handlers({
  GET: apiHandler(
    E.listInvites,
    ({ kv, ctx, principal, params }) =>
      listGroupInvites(kv, ctx.state.config, principal, params.id),
  ),
  POST: apiHandler(
    E.createInvite,
    ({ kv, ctx, principal, params, body }) =>
      createGroupInvite(kv, ctx.state.config, principal, params.id, body.role),
  ),
});
