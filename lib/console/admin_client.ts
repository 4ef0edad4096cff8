/**
 * The console's calls to the admin API from the browser: same-origin `fetch` with the session
 * cookie (the browser adds `Origin`, which the API checks on writes), versioned reads that
 * return the `ETag`, and writes that send it as `If-Match`. Errors become an ApiError with
 * the API's `{ error }` message. Browser-only.
 */

/** An answer other than 2xx, with the API's message. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

async function fail(res: Response): Promise<never> {
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = await res.json();
    if (typeof body?.error === "string") message = body.error;
  } catch {
    // Not JSON: keep the status line.
  }
  throw new ApiError(res.status, message);
}

async function send(method: string, path: string, body: unknown, etag?: string) {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (etag !== undefined) headers["if-match"] = etag;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "The server could not be reached; check the connection and try again");
  }
  if (!res.ok) return await fail(res);
  return res;
}

/** A versioned read: the body and its `ETag`. */
export async function getVersioned<T>(path: string): Promise<{ body: T; etag: string }> {
  const res = await send("GET", path, undefined);
  return { body: await res.json() as T, etag: res.headers.get("etag") ?? "" };
}

/** A versioned write with `If-Match`; answers the new `ETag` (empty when none came). */
export async function putVersioned(path: string, body: unknown, etag: string): Promise<string> {
  const res = await send("PUT", path, body, etag);
  await res.body?.cancel();
  return res.headers.get("etag") ?? "";
}

/** A POST answering JSON. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const res = await send("POST", path, body);
  return await res.json() as T;
}

/** Loads a JSON file of this site (a bundled sample). */
export async function getJson<T>(path: string): Promise<T> {
  const res = await send("GET", path, undefined);
  return await res.json() as T;
}
