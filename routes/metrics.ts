import { isMetricsBearer } from "../lib/ops/metrics_access.ts";
import { renderMetrics } from "../lib/ops/metrics.ts";
import { PROMETHEUS_CONTENT_TYPE } from "../lib/ops/prometheus.ts";
import { define } from "../lib/state.ts";

/** Prometheus metrics: 404 unless METRICS_TOKEN is set, then only to its bearer. */
export const handler = define.handlers({
  async GET(ctx) {
    const token = ctx.state.config.metricsToken;
    if (token === undefined) return Response.json({ error: "Not found" }, { status: 404 });
    if (!await isMetricsBearer(ctx.req.headers.get("authorization"), token)) {
      return Response.json({ error: "Unauthorized" }, {
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="metrics"' },
      });
    }
    return new Response(await renderMetrics(ctx.state.kv), {
      headers: { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" },
    });
  },
});
