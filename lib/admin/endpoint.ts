/**
 * The admin API's endpoint definition and the handler wrapper every endpoint uses: it takes
 * the signed-in principal from `ctx.state`, checks the path's ids against their formats
 * (`lib/ids.ts`), parses the query and the JSON body (read with the one bounded reader,
 * `readJsonBody`: 2 MB, 10 s) with the endpoint's schemas (400 naming the field), reads
 * `If-Match`, runs the endpoint and answers. Endpoints return data, never a `Response`: the
 * wrapper alone sets the answer's status (the endpoint's success status) and headers (`ETag`
 * for `Versioned` data; `Cache-Control: no-store` comes with every `/admin/api/` answer,
 * `lib/no_store.ts`). The console middleware (`routes/admin/_middleware.ts`) has already
 * resolved the principal and refused requests without a session (401), without console access
 * (403) and cross-origin writes (403).
 */
import type { Kv } from "../store/backend/types.ts";
import { type z, ZodError } from "zod";
import { type Principal, principalOf } from "../auth/principal.ts";
import { formatZodError } from "../model/schema.ts";
import { type Context, type HandlerFn, HttpError } from "../fresh/mod.ts";
import { requireId } from "../http_guards.ts";
import type { IdKind } from "../ids.ts";
import { ADMIN_BODY_BYTES } from "../limits.ts";
import { readJsonBody } from "../http_body.ts";
import type { State } from "../state.ts";
import { Versioned } from "./versioned.ts";

/** HTTP methods the admin API uses. */
export type Method = "GET" | "PUT" | "POST" | "DELETE";

/** One endpoint: what the OpenAPI document says and what the handler validates. */
export interface Endpoint<Body = unknown, Query = unknown> {
  method: Method;
  /** OpenAPI form: `/admin/api/groups/{id}/routes`. */
  path: string;
  summary: string;
  /** Who may call it, in words. */
  access: string;
  /** The JSON body; validated before the endpoint runs unless `bodyCheckedByEndpoint`. */
  body?: z.ZodType<Body, unknown>;
  /** The body may be left out: an empty body counts as `{}`. */
  bodyOptional?: boolean;
  /** The endpoint validates the body itself (with the same schemas, see its module). */
  bodyCheckedByEndpoint?: boolean;
  query?: z.ZodType<Query, unknown>;
  response: z.ZodType;
  /** Success status (200 unless given). */
  status?: number;
  /** GET answers an `ETag`; PUT honours `If-Match` (409 when it is stale). */
  versioned?: boolean;
  /** A versioned PUT answers the new version as `ETag` too. */
  answersVersion?: boolean;
  /** The version is a digest of the content (32 hex digits), not a KV versionstamp. */
  digestVersion?: boolean;
  /** Error answers particular to this endpoint, by status: what they mean. */
  errors?: Record<string, string>;
}

/**
 * Keeps an endpoint's literal types: its method and path, and the types of its schemas (for
 * `body` and `query` inference, and for the console's typed client, `components/api/admin_api.ts`).
 */
export function defineEndpoint<const E extends Endpoint<unknown, unknown>>(
  endpoint: E,
): E & Endpoint<unknown, unknown> {
  return endpoint;
}

/** What an endpoint receives. */
interface ApiCall<Body, Query> {
  ctx: Context<State>;
  kv: Kv;
  principal: Principal;
  params: Record<string, string>;
  body: Body;
  query: Query;
  /**
   * The versionstamp the client read (`If-Match`): undefined without the header (the last
   * writer wins), null for "nothing stored yet".
   */
  expected: string | null | undefined;
}

const EMPTY_TAG = "empty";

/** The id format of a path parameter, by the collection it follows (`/groups/{id}`). */
const PATH_ID_KINDS: Record<string, IdKind> = {
  groups: "group",
  logs: "sendLog",
  invites: "inviteToken",
  delivery: "deliveryId",
  events: "event",
  replays: "replay",
  reminders: "reminder",
};

/**
 * Each `{parameter}` of an endpoint path with the id format it must have. Throws when a
 * parameter follows a collection without a known format, so no endpoint goes unchecked.
 */
export function pathIdKinds(path: string): [name: string, kind: IdKind][] {
  return [...path.matchAll(/\/([\w-]+)\/\{(\w+)\}/g)].map(([, collection, name]) => {
    const kind = Object.hasOwn(PATH_ID_KINDS, collection) ? PATH_ID_KINDS[collection] : undefined;
    if (!kind) throw new Error(`${path}: no id format for {${name}}`);
    return [name, kind];
  });
}

/** The `ETag` of a versionstamp (null: nothing stored yet). */
export function etagOf(versionstamp: string | null): string {
  return `"${versionstamp ?? EMPTY_TAG}"`;
}

/** A KV versionstamp: 20 hexadecimal digits. */
const VERSIONSTAMP = /^[0-9a-f]{20}$/;
/** A content digest version (`single_group.ts`): 32 hexadecimal digits. */
const DIGEST = /^[0-9a-f]{32}$/;

/**
 * The version an `If-Match` header names; undefined without one (or with `*`). A tag that
 * has not the form of the endpoint's versions (`digest`: content digests, else KV
 * versionstamps) cannot be one the API gave, and is refused with 400: KV could not check it.
 */
function expectedVersion(req: Request, digest = false): string | null | undefined {
  const header = req.headers.get("if-match")?.trim();
  if (!header || header === "*") return undefined;
  const tag = header.replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
  if (tag === EMPTY_TAG) return null;
  if (!(digest ? DIGEST : VERSIONSTAMP).test(tag)) {
    throw new HttpError(400, "If-Match: not an ETag of this API");
  }
  return tag;
}

/**
 * Validates `value` with `schema`; 400 naming the field (`routes[3].name: required`). `at` is
 * where `value` sits in the body, for values validated one by one.
 */
export function parseOr400<T>(
  schema: z.ZodType<T, unknown>,
  value: unknown,
  at: readonly (string | number)[] = [],
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ ...issue, path: [...at, ...issue.path] }));
  throw new HttpError(400, formatZodError(new ZodError(issues)));
}

function queryObject(url: URL): Record<string, string> {
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of url.searchParams) query[name] = value;
  return query;
}

/**
 * The JSON answer to an endpoint's data, with the endpoint's success status and, for
 * `Versioned` data, its version as `ETag`. A versioned GET must answer `Versioned` data.
 */
function answerOf(endpoint: Endpoint<unknown, unknown>, data: unknown): Response {
  const status = endpoint.status ?? 200;
  if (data instanceof Versioned) {
    return Response.json(data.data, { status, headers: { etag: etagOf(data.version) } });
  }
  if (endpoint.versioned && endpoint.method === "GET") {
    throw new Error(`${endpoint.method} ${endpoint.path} must answer Versioned data`);
  }
  return Response.json(data, { status });
}

/** The route handler for an endpoint; `run` returns the data to answer (see `answerOf`). */
export function apiHandler<Body, Query>(
  endpoint: Endpoint<Body, Query>,
  run: (call: ApiCall<Body, Query>) => Promise<unknown>,
): HandlerFn<unknown, State> {
  const pathIds = pathIdKinds(endpoint.path);
  return async (ctx) => {
    const principal = principalOf(ctx);
    for (const [name, kind] of pathIds) requireId(kind, ctx.params[name], name);
    const query = endpoint.query
      ? parseOr400(endpoint.query, queryObject(ctx.url))
      : undefined as Query;
    let body = undefined as Body;
    if (endpoint.body) {
      const raw = await readJsonBody(
        ctx.req,
        { maxBytes: ADMIN_BODY_BYTES },
        endpoint.bodyOptional ? {} : undefined,
      );
      body = endpoint.bodyCheckedByEndpoint ? raw as Body : parseOr400(endpoint.body, raw);
    }
    const data = await run({
      ctx,
      kv: ctx.state.kv,
      principal,
      params: ctx.params,
      body,
      query,
      expected: endpoint.versioned && endpoint.method !== "GET"
        ? expectedVersion(ctx.req, endpoint.digestVersion)
        : undefined,
    });
    return answerOf(endpoint as Endpoint<unknown, unknown>, data);
  };
}
