/** Redirects that stay on the site: the answer behind `ctx.redirect()`. */
import type { RedirectStatus } from "./http_error.ts";

/** How much of a refused target the error message repeats. */
const TARGET_SHOWN = 200;

function offSite(target: string, leadsTo: string): Error {
  return new Error(
    `ctx.redirect() stays on this site: ${JSON.stringify(target.slice(0, TARGET_SHOWN))} ` +
      `leads to ${leadsTo}; answer a Response with a Location header to leave the site`,
  );
}

/**
 * The `Location` for a redirect from `requestUrl` to `target`: `target`
 * resolved against the request URL as a browser would (so `/\host`, `//host`
 * and control characters are read the browser's way) and returned as path,
 * query and fragment with repeated slashes collapsed. Throws when the target
 * is on another origin or is no address at all: leaving the site is never
 * done by accident.
 */
export function sameSiteLocation(target: string, requestUrl: URL): string {
  let resolved: URL;
  try {
    resolved = new URL(target, requestUrl);
  } catch {
    throw offSite(target, "no valid address");
  }
  if (resolved.origin !== requestUrl.origin) {
    throw offSite(
      target,
      resolved.origin === "null" ? `a ${resolved.protocol} address` : resolved.origin,
    );
  }
  return resolved.pathname.replace(/\/{2,}/g, "/") + resolved.search + resolved.hash;
}

/** A redirect response to `target` on this site (see `sameSiteLocation`). */
export function redirectResponse(
  target: string,
  requestUrl: URL,
  status: RedirectStatus = 302,
): Response {
  const location = sameSiteLocation(target, requestUrl);
  return new Response(null, { status, headers: { location } });
}
