import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { describeMe } from "@/lib/admin/me.ts";
import { define } from "@/lib/state.ts";

/** The signed-in user and what they may see. */
export const handler = define.handlers({
  GET: apiHandler(E.me, ({ kv, ctx, principal }) => describeMe(kv, ctx.state.config, principal)),
});
