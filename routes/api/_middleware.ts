import { identifyBearer } from "../../lib/auth/bearer.ts";
import { requireFeature } from "../../lib/http_guards.ts";
import { define } from "../../lib/state.ts";

/** Public pages under /api/ that need no bearer (the link-preview card). */
const PUBLIC_PATHS = new Set(["/api/richheader"]);

/**
 * Every action API call is authenticated once: the bearer's user goes onto `ctx.state` (a method
 * the route does not answer got its 405 before any middleware). Bearer tokens come from GitHub
 * sign-in: while it is not configured, the API answers 503.
 */
export const handler = define.middleware((ctx) => {
  if (PUBLIC_PATHS.has(ctx.url.pathname)) return ctx.next();
  requireFeature(ctx.state.config, "GitHub sign-in");
  return identifyBearer(ctx);
});
