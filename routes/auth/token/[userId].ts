import { requireSameOrigin } from "@/lib/auth/access.ts";
import { principalOf } from "@/lib/auth/principal.ts";
import { revokeUserToken } from "@/lib/auth/revoke.ts";
import { requireId } from "@/lib/http_guards.ts";
import { define } from "@/lib/state.ts";

/** Revokes a user's stored GitHub token (admin session: a super admin, or the user themself). */
export const handler = define.handlers({
  async DELETE(ctx) {
    requireSameOrigin(ctx.req, ctx.state.config);
    const principal = principalOf(ctx);
    const userId = requireId("githubUserId", ctx.params.userId, "userId");
    await revokeUserToken(ctx.state.kv, principal, userId);
    return Response.json({ ok: true });
  },
});
