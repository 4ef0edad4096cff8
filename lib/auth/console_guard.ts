/**
 * The single access check in front of every console page and console API call
 * (`routes/admin/_middleware.ts`, after the principal is on `ctx.state`):
 *
 * - `/admin/login` and `/admin/logout` pass (they start and end sessions);
 * - `GET /admin?error=forbidden` passes, so a refused person sees why;
 * - everything else needs a session (sign-in redirect for pages, 401 for the API);
 * - writes must come from this site (same-origin);
 * - `/admin/invite` needs only a session: accepting an invite is how a person
 *   without a group gets one; so does `/admin/debug-person` (DEBUG_MODE only),
 *   where a person without a group switches back;
 * - every other path needs console access (a super admin or a group member).
 *
 * With DEBUG_MODE the principal is a built-in super admin, so all of it passes.
 */
import type { Context } from "../fresh/mod.ts";
import type { State } from "../state.ts";
import { consoleAccessRefused, requireSameOrigin, signInRequired } from "./access.ts";
import { hasConsoleAccess } from "./principal.ts";

const OPEN_PATHS = new Set(["/admin/login", "/admin/logout"]);
const SESSION_ONLY_PATHS = new Set(["/admin/invite", "/admin/debug-person"]);

function isForbiddenNotice(ctx: Context<State>): boolean {
  return ctx.req.method === "GET" && ctx.url.pathname === "/admin" &&
    ctx.url.searchParams.get("error") === "forbidden";
}

/**
 * The answer when the request may not see the console (a redirect for pages;
 * 401/403 are thrown), or null when it may.
 */
export function guardConsole(ctx: Context<State>): Response | null {
  const path = ctx.url.pathname.replace(/\/+$/, "") || "/";
  if (OPEN_PATHS.has(path) || isForbiddenNotice(ctx)) return null;
  const principal = ctx.state.principal;
  if (!principal) return signInRequired(ctx);
  if (!SESSION_ONLY_PATHS.has(path) && !hasConsoleAccess(principal)) {
    return consoleAccessRefused(ctx);
  }
  requireSameOrigin(ctx.req, ctx.state.config);
  return null;
}
