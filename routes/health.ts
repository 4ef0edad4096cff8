import { readReadiness } from "../lib/ops/readiness.ts";
import { checkHealth } from "../lib/store/health.ts";
import { define } from "../lib/state.ts";

const UNAVAILABLE = { status: "unavailable", error: "Storage is unavailable" };

/**
 * Liveness and storage check: `{ status: "ok" }`, or 503 when KV cannot be read. With `?ready`,
 * readiness details too: KV reachable, queue depth and the oldest waiting event's age.
 */
export const handler = define.handlers({
  async GET(ctx) {
    if (ctx.url.searchParams.has("ready")) {
      const readiness = await readReadiness(ctx.state.kv);
      return Response.json(readiness ?? { ...UNAVAILABLE, ready: false }, {
        status: readiness ? 200 : 503,
      });
    }
    if (await checkHealth(ctx.state.kv)) return Response.json({ status: "ok" });
    return Response.json(UNAVAILABLE, { status: 503 });
  },
});
