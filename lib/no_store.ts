/**
 * Answers that carry personal or secret data (the admin API, the action API, sign-in and token
 * endpoints) are never kept by a browser or a proxy: they all get `Cache-Control: no-store`,
 * error answers included.
 */

const NO_STORE_PREFIXES = ["/admin/api/", "/api/", "/auth/"];

/** Whether answers for `pathname` must carry `Cache-Control: no-store`. */
export function isNoStorePath(pathname: string): boolean {
  return NO_STORE_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}
