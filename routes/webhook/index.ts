import { ingressDeps } from "../../lib/ingress_deps.ts";
import { handleWebhook } from "../../lib/ingest/handle.ts";
import { define } from "../../lib/state.ts";

/** Global ingress: the sender is detected from its headers, global secrets apply. */
export const handler = define.handlers({
  POST: (ctx) => handleWebhook(ingressDeps(ctx.state), ctx.req),
});
