/**
 * Request guards built on the principal: they return the principal or throw
 * an HttpError. A browser navigation (`Accept: text/html`) that needs a
 * sign-in is redirected to `/admin/login?redirect=<this page>`; every other
 * request answers 401 JSON. Writes from a browser must be same-origin, and
 * forms carry the session's CSRF token.
 */
import type { Config } from "../config.ts";
import { timingSafeEqual } from "../crypto.ts";
import { utf8 } from "../encoding.ts";
import { HttpError } from "../fresh/http_error.ts";
import type { Context } from "../fresh/types.ts";
import type { State } from "../state.ts";
import { hasConsoleAccess, loadPrincipal, type Principal } from "./principal.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether the request is a browser page navigation rather than an API call. */
export function wantsPage(req: Request): boolean {
  return (req.headers.get("accept") ?? "").includes("text/html");
}

/** The sign-in address that comes back to `url` afterwards. */
function signInPath(url: URL): string {
  return `/admin/login?redirect=${encodeURIComponent(url.pathname + url.search)}`;
}

/** A redirect, thrown: `HttpError` with a `Location` header. */
export function redirectError(location: string, message = "Redirecting"): HttpError {
  return new HttpError(302, message, { location });
}

/** The signed-in principal; otherwise a redirect to sign-in (pages) or 401 (API). */
export async function requirePrincipal(ctx: Context<State>): Promise<Principal> {
  const principal = await loadPrincipal(ctx);
  if (principal) return principal;
  if (wantsPage(ctx.req) && SAFE_METHODS.has(ctx.req.method)) {
    throw redirectError(signInPath(ctx.url), "Sign-in required");
  }
  throw new HttpError(401, "Sign-in required");
}

/**
 * The principal, who must also have console access (a super admin or a group
 * member); otherwise pages redirect to `/admin?error=forbidden` and API calls
 * answer 403.
 */
export async function requireConsoleAccess(ctx: Context<State>): Promise<Principal> {
  const principal = await requirePrincipal(ctx);
  if (hasConsoleAccess(principal)) return principal;
  if (wantsPage(ctx.req) && SAFE_METHODS.has(ctx.req.method)) {
    throw redirectError("/admin?error=forbidden", "No console access");
  }
  throw new HttpError(403, "You have no access to the console");
}

function allowedOrigins(req: Request, config: Config): Set<string> {
  return new Set([new URL(config.baseUrl).origin, new URL(req.url).origin]);
}

/**
 * Refuses (403) a state-changing request a browser sent from another site:
 * `Origin` must be this site (BASE_URL's origin or the request's own); when a
 * browser sends no `Origin`, `Sec-Fetch-Site` must say `same-origin`. Requests
 * with neither header do not come from a browser page and pass. Safe methods
 * always pass.
 */
export function requireSameOrigin(req: Request, config: Config): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.get("origin");
  if (origin !== null) {
    if (!allowedOrigins(req, config).has(origin)) {
      throw new HttpError(403, "Cross-origin request refused");
    }
    return;
  }
  const site = req.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") {
    throw new HttpError(403, "Cross-origin request refused");
  }
}

/** Refuses (403) a form whose CSRF token is not the session's. */
export function requireCsrfToken(principal: Principal, submitted: unknown): void {
  const ok = typeof submitted === "string" &&
    timingSafeEqual(utf8(submitted), utf8(principal.csrfToken));
  if (!ok) throw new HttpError(403, "Invalid or missing form token; reload the page and try again");
}
