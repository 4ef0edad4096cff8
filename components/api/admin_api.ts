/**
 * The console's one client of the admin API, from the browser. An endpoint is named by its
 * method and path as the endpoint registry (`lib/admin/endpoints.ts`) writes them
 * (`"PUT /admin/api/groups/{id}/routes"`); its path parameters, body and answer are typed from
 * the registry, which is imported for its types only, so the bundle takes no server code.
 * Calls are same-origin `fetch` with the session cookie (the browser adds the `Origin` the
 * API checks on writes), JSON bodies, and `If-Match` for versioned writes. Every failure is
 * one {@link ApiError}: the API's `{ error }` message with the status (0: not reached).
 * Browser-only.
 */
import type { z } from "zod";
import type { ADMIN_ENDPOINTS } from "../../lib/admin/endpoints.ts";

type Endpoints = typeof ADMIN_ENDPOINTS;
type Operation = keyof Endpoints;
type KeyOf<Op extends Operation> = `${Endpoints[Op]["method"]} ${Endpoints[Op]["path"]}`;

/** An endpoint of the admin API by method and path: `"GET /admin/api/groups/{id}/routes"`. */
export type ApiEndpoint = { [Op in Operation]: KeyOf<Op> }[Operation];

type EndpointOf<E extends ApiEndpoint> = {
  [Op in Operation]: KeyOf<Op> extends E ? Endpoints[Op] : never;
}[Operation];

type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The JSON an endpoint answers. */
export type AnswerOf<E extends ApiEndpoint> = z.output<EndpointOf<E>["response"]>;

type BodySchemaOf<E extends ApiEndpoint> = EndpointOf<E> extends { body: z.ZodType }
  ? EndpointOf<E>["body"]
  : undefined;

/** The JSON body an endpoint takes (undefined: none). */
export type BodyOf<E extends ApiEndpoint> = BodySchemaOf<E> extends z.ZodType
  ? z.input<BodySchemaOf<E>>
  : undefined;

type ParamsOption<E extends ApiEndpoint> = [ParamNames<EndpointOf<E>["path"]>] extends [never]
  ? { params?: never }
  : { params: Record<ParamNames<EndpointOf<E>["path"]>, string> };

type BodyOption<E extends ApiEndpoint> = [BodyOf<E>] extends [undefined] ? { body?: never }
  : { body: BodyOf<E> };

/** A call's path parameters, body, query and the version it writes onto. */
export type CallOptions<E extends ApiEndpoint> = ParamsOption<E> & BodyOption<E> & {
  query?: Record<string, string | number>;
  /** The `ETag` the write is based on, sent as `If-Match`. */
  etag?: string | null;
};

/** A successful answer: its JSON and its `ETag` (null when none came). */
export interface ApiAnswer<T> {
  data: T;
  etag: string | null;
}

/** A call that failed: the API's message, with its status (0: the server was not reached). */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The path of `endpoint` with its parameters filled in and the query added. */
export function pathOf(
  endpoint: string,
  params: Readonly<Record<string, string>> = {},
  query?: Readonly<Record<string, string | number>>,
): string {
  const template = endpoint.slice(endpoint.indexOf(" ") + 1);
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined) throw new Error(`${endpoint}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) search.set(name, String(value));
  return `${path}?${search}`;
}

async function send(method: string, path: string, body: unknown, etag?: string | null) {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (etag) headers["if-match"] = etag;
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
  if (res.ok) return res;
  const answer = await res.json().catch(() => null);
  throw new ApiError(
    res.status,
    typeof answer?.error === "string" ? answer.error : `HTTP ${res.status}`,
  );
}

type OptionsArgument<E extends ApiEndpoint> = Record<never, never> extends CallOptions<E>
  ? [options?: CallOptions<E>]
  : [options: CallOptions<E>];

/** Calls an endpoint of the admin API; throws an {@link ApiError} when it fails. */
export async function adminApi<E extends ApiEndpoint>(
  endpoint: E,
  ...[options]: OptionsArgument<E>
): Promise<ApiAnswer<AnswerOf<E>>> {
  const given = (options ?? {}) as {
    params?: Record<string, string>;
    body?: unknown;
    query?: Record<string, string | number>;
    etag?: string | null;
  };
  const method = endpoint.slice(0, endpoint.indexOf(" "));
  const res = await send(
    method,
    pathOf(endpoint, given.params, given.query),
    given.body,
    given.etag,
  );
  const text = await res.text();
  return { data: (text ? JSON.parse(text) : null) as AnswerOf<E>, etag: res.headers.get("etag") };
}

/** A call's outcome without throwing: the answer, or the {@link ApiError}. */
export type ApiOutcome<T> = ({ ok: true } & ApiAnswer<T>) | { ok: false; error: ApiError };

/** {@link adminApi} that answers the failure instead of throwing it. */
export async function tryAdminApi<E extends ApiEndpoint>(
  endpoint: E,
  ...options: OptionsArgument<E>
): Promise<ApiOutcome<AnswerOf<E>>> {
  try {
    return { ok: true, ...await adminApi(endpoint, ...options) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error };
    throw error;
  }
}

/** Loads a JSON file this site serves (a bundled sample); failures as {@link ApiError}. */
export async function siteJson<T>(path: string): Promise<T> {
  return await (await send("GET", path, undefined)).json() as T;
}
