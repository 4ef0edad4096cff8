import { isMetricsBearer } from "../lib/ops/metrics_access.ts";
import { renderMetrics } from "../lib/ops/metrics.ts";
import { PROMETHEUS_CONTENT_TYPE } from "../lib/ops/prometheus.ts";
import { HttpError } from "../lib/fresh/mod.ts";
import { define } from "../lib/state.ts";

/**
 * Prometheus metrics: 404 to every method unless METRICS_TOKEN is set; then `GET` (and `HEAD`)
 * only to its bearer, 405 to other methods.
 */
export const handler = define.handlers(async (ctx) => {
  const token = ctx.state.config.metricsToken;
  if (token === undefined) return Response.json({ error: "Not found" }, { status: 404 });
  const method = ctx.req.method;
  if (method !== "GET" && method !== "HEAD") {
    throw new HttpError(405, "Method not allowed", { headers: { allow: "GET, HEAD" } });
  }
  if (!await isMetricsBearer(ctx.req.headers.get("authorization"), token)) {
    return Response.json({ error: "Unauthorized" }, {
      status: 401,
      headers: { "www-authenticate": 'Bearer realm="metrics"' },
    });
  }
  const headers = { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" };
  if (method === "HEAD") return new Response(null, { headers });
  return new Response(await renderMetrics(ctx.state.kv), { headers });
});
