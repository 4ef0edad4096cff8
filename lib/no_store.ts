/**
 * Answers that carry personal or secret data (the admin API, the action API, sign-in and token
 * endpoints) are never kept by a browser or a proxy: they all get `Cache-Control: no-store`,
 * error answers included. The public link-preview card (`/api/richheader`) is the exception:
 * it repeats its own parameters and is meant to be cached.
 */

const NO_STORE_PREFIXES = ["/admin/api/", "/api/", "/auth/"];
const CACHEABLE_PATHS = new Set(["/api/richheader"]);

/** Whether answers for `pathname` must carry `Cache-Control: no-store`. */
export function isNoStorePath(pathname: string): boolean {
  if (CACHEABLE_PATHS.has(pathname)) return false;
  return NO_STORE_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}
