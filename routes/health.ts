import { healthResponse } from "../lib/ops/health.ts";
import { define } from "../lib/state.ts";

/**
 * Liveness and storage check: `{ status: "ok" }`, or 503 when KV cannot be read. With `?ready`,
 * whether the instance is ready, and the readiness details to the bearer of METRICS_TOKEN.
 */
export const handler = define.handlers({
  GET: (ctx) =>
    healthResponse(ctx.state.kv, {
      ready: ctx.url.searchParams.has("ready"),
      authorization: ctx.req.headers.get("authorization"),
      metricsToken: ctx.state.config.metricsToken,
    }),
});
