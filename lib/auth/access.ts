/**
 * What a request needs beyond a principal. A browser page navigation (a safe
 * method that accepts HTML) that needs a sign-in or console access is
 * redirected; every other request answers 401 or 403 JSON. Writes from a
 * browser must be same-origin, and forms carry the session's CSRF token in
 * the field `CSRF_FIELD`.
 */
import type { Config } from "../config.ts";
import { timingSafeEqual } from "../crypto.ts";
import { utf8 } from "../encoding.ts";
import { acceptsHtml, type Context, HttpError } from "../fresh/mod.ts";
import type { State } from "../state.ts";
import type { Principal } from "./principal.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The name of the form field that carries the session's CSRF token, in every form. */
export const CSRF_FIELD = "csrf_token";

/** Whether the request is a browser page navigation: a safe method that accepts HTML. */
function isPageNavigation(req: Request): boolean {
  return SAFE_METHODS.has(req.method) && acceptsHtml(req);
}

/** The sign-in address that comes back to `url` afterwards. */
function signInPath(url: URL): string {
  return `/admin/login?redirect=${encodeURIComponent(url.pathname + url.search)}`;
}

/** The answer to a request that needs a sign-in: a page navigation goes to sign-in; else 401. */
export function signInRequired(ctx: Context<State>): Response {
  if (isPageNavigation(ctx.req)) return ctx.redirect(signInPath(ctx.url));
  throw new HttpError(401, "Sign-in required");
}

/**
 * The answer to a signed-in person without console access (neither a super
 * admin nor a group member): a page navigation goes to `/admin?error=forbidden`; else 403.
 */
export function consoleAccessRefused(ctx: Context<State>): Response {
  if (isPageNavigation(ctx.req)) return ctx.redirect("/admin?error=forbidden");
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

/** Refuses (403) a form whose `CSRF_FIELD` is not the session's CSRF token. */
export function requireCsrfToken(principal: Principal, form: FormData): void {
  const submitted = form.get(CSRF_FIELD);
  const ok = typeof submitted === "string" &&
    timingSafeEqual(utf8(submitted), utf8(principal.csrfToken));
  if (!ok) throw new HttpError(403, "Invalid or missing form token; reload the page and try again");
}
