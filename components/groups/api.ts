/**
 * The admin API as the group islands call it: same-origin `fetch` (the browser sends the
 * `Origin` the API's cross-site check expects) with JSON bodies and `If-Match`.
 */

/** An answer, read: `error` is the API's message when `ok` is false. */
export interface ApiAnswer<T> {
  ok: boolean;
  status: number;
  data: T | null;
  etag: string | null;
  error: string;
}

/** Calls the admin API; a network failure answers status 0 with a message. */
export async function callApi<T = unknown>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  options: { body?: unknown; etag?: string | null } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.etag) headers["if-match"] = options.etag;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    return { ok: false, status: 0, data: null, etag: null, error: "Network error: try again" };
  }
  const data = await res.json().catch(() => null);
  const error = res.ok ? "" : typeof data?.error === "string" ? data.error : `HTTP ${res.status}`;
  return {
    ok: res.ok,
    status: res.status,
    data: res.ok ? data : null,
    etag: res.headers.get("etag"),
    error,
  };
}

/** The path of a group's API resource. */
export function groupPath(groupId: string, rest = ""): string {
  return `/admin/api/groups/${encodeURIComponent(groupId)}${rest}`;
}
