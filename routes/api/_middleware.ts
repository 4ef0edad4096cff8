import { identifyBearer } from "../../lib/auth/bearer.ts";
import { requireFeature } from "../../lib/http_guards.ts";
import { define } from "../../lib/state.ts";

/** Public pages under /api/ that need no bearer (the link-preview card). */
const PUBLIC_PATHS = new Set(["/api/richheader"]);

/**
 * Every action API call is authenticated once: the bearer's user goes onto `ctx.state`. The
 * action routes answer only POST: another method gets its 405 before any authentication. Bearer
 * tokens come from GitHub sign-in: while it is not configured, the API answers 503.
 */
export const handler = define.middleware((ctx) => {
  if (PUBLIC_PATHS.has(ctx.url.pathname) || ctx.req.method !== "POST") return ctx.next();
  requireFeature(ctx.state.config, "GitHub sign-in");
  return identifyBearer(ctx);
});
