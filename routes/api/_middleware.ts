import { identifyBearer } from "../../lib/auth/bearer.ts";
import { define } from "../../lib/state.ts";

/** Public pages under /api/ that need no bearer (the link-preview card). */
const PUBLIC_PATHS = new Set(["/api/richheader"]);

/**
 * Every action API call is authenticated once: the bearer's user goes onto `ctx.state`. The
 * action routes answer only POST: another method gets its 405 before any authentication.
 */
export const handler = define.middleware((ctx) =>
  PUBLIC_PATHS.has(ctx.url.pathname) || ctx.req.method !== "POST" ? ctx.next() : identifyBearer(ctx)
);
