import { ingressDeps } from "../../lib/ingress_deps.ts";
import { handleWebhook } from "../../lib/ingest/handle.ts";
import { define } from "../../lib/state.ts";

/** Per-group ingress: verified against the group's own secret; only its routes fire. */
export const handler = define.handlers({
  POST: (ctx) => handleWebhook(ingressDeps(ctx.state), ctx.req, ctx.params.groupId),
});
