import { checkHealth } from "../lib/store/health.ts";
import { define } from "../lib/state.ts";

/** Liveness and storage check. */
export const handler = define.handlers({
  async GET(ctx) {
    if (await checkHealth(ctx.state.kv)) return Response.json({ status: "ok" });
    return Response.json({ status: "unavailable", error: "Storage is unavailable" }, {
      status: 503,
    });
  },
});
