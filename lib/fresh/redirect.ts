/** Redirects that stay on the site: the answer behind `ctx.redirect()`. */
import type { RedirectStatus } from "./http_error.ts";

/**
 * The `Location` for a redirect from `requestUrl` to `target`: `target`
 * resolved against the request URL as a browser would (so `/\host`, `//host`
 * and control characters are read the browser's way), kept only when it is
 * on the request's origin and returned as path, query and fragment with
 * repeated slashes collapsed; any other origin gives `/`.
 */
export function sameSiteLocation(target: string, requestUrl: URL): string {
  let resolved: URL;
  try {
    resolved = new URL(target, requestUrl);
  } catch {
    return "/";
  }
  if (resolved.origin !== requestUrl.origin) return "/";
  return resolved.pathname.replace(/\/{2,}/g, "/") + resolved.search + resolved.hash;
}

/** A redirect response to `target` on this site (see `sameSiteLocation`), with extra headers. */
export function redirectResponse(
  target: string,
  requestUrl: URL,
  status: RedirectStatus = 302,
  headers?: HeadersInit,
): Response {
  const all = new Headers(headers);
  all.set("location", sameSiteLocation(target, requestUrl));
  return new Response(null, { status, headers: all });
}
