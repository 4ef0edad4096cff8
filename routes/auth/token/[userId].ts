import { requirePrincipal, requireSameOrigin } from "../../../lib/auth/access.ts";
import { revokeUserToken } from "../../../lib/auth/revoke.ts";
import { define } from "../../../lib/state.ts";

/** Revokes a user's stored GitHub token (admin session: a super admin, or the user themself). */
export const handler = define.handlers({
  async DELETE(ctx) {
    requireSameOrigin(ctx.req, ctx.state.config);
    const principal = await requirePrincipal(ctx);
    await revokeUserToken(ctx.state.kv, principal, ctx.params.userId);
    return Response.json({ ok: true });
  },
});
