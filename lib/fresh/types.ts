/**
 * The shapes route modules export, as in Fresh 2: `handler` (a method map or
 * one function) returning a `Response` or `page(data)`, a default page
 * component, `_middleware` (a `handler` or default export: one function or an
 * array), `_app`, `_404` and `_error`. Where these differ from Fresh 2:
 * docs/fresh_layer.md.
 */
import type { ComponentType, FunctionComponent, JSX } from "preact";
import type { RedirectStatus } from "./http_error.ts";
import type { PageResponse } from "./page_response.ts";

/** The methods a handler map may name. */
export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** The per-request context every handler and middleware receives. */
export interface Context<State> {
  /** The incoming request. */
  readonly req: Request;
  /** The parsed request URL. */
  readonly url: URL;
  /** Path parameters from `[name]` and `[...rest]` segments. */
  readonly params: Record<string, string>;
  /** Per-request state, shared by middleware, handlers and pages. */
  readonly state: State;
  /** Calls the next middleware or the route handler (only meaningful in middleware). */
  next(): Promise<Response>;
  /**
   * A redirect to a path on this site (default status 302). Relative paths
   * resolve against the request URL and repeated slashes are collapsed; an
   * address on another origin (absolute, `//host`, `/\host`) throws, so a
   * redirect can never leave the site (the request answers 500).
   */
  redirect(pathOrUrl: string, status?: RedirectStatus): Response;
}

/** What a handler answers: a response, or `page(data)` for the route's page to render. */
type HandlerResult<Data> =
  | Response
  | PageResponse<Data>
  | Promise<Response | PageResponse<Data>>;

/** One request handler, as Fresh 2's `HandlerFn<Data, State>`. */
export type HandlerFn<Data, State> = (ctx: Context<State>) => HandlerResult<Data>;

/** Handlers by HTTP method; a missing method answers 405. */
export type HandlerByMethod<Data, State> = {
  [M in Method]?: (ctx: Context<State>) => HandlerResult<Data>;
};

/** What a route module may export as `handler`: one function for every method, or a method map. */
export type RouteHandler<Data, State> =
  | ((ctx: Context<State>) => HandlerResult<Data>)
  | HandlerByMethod<Data, State>;

/** A `_middleware` function: answers itself or calls `ctx.next()`. */
export type Middleware<State> = (ctx: Context<State>) => Response | Promise<Response>;

/** The data type a route handler passes to its page through `page(data)`. */
// deno-lint-ignore no-explicit-any
export type RouteData<Handler> = Handler extends (ctx: any) => HandlerResult<infer Data> ? Data
  // deno-lint-ignore no-explicit-any
  : Handler extends HandlerByMethod<infer Data, any> ? Data
  : never;

/**
 * The page data `define.page<T>` gives its component: inferred from the
 * handler when `T` is `typeof handler` (Fresh 2); `unknown` without `T`.
 */
type PageData<T> = [T] extends [never] ? unknown : RouteData<T>;

/** Props every page, `_app`, `_404` and `_error` component receives (as Fresh 2's `PageProps`). */
export interface PageProps<Data = unknown, State = unknown> {
  /** What the handler passed to `page(data)`; undefined for pages rendered without a handler. */
  data: Data;
  url: URL;
  req: Request;
  params: Record<string, string>;
  state: State;
  /** The error being answered, on `_404` and `_error`; null on other pages. */
  error: unknown;
  /** In `_app`: the page, already bound to its props; elsewhere an empty component. */
  Component: FunctionComponent;
}

/** A module under `routes/`: a route, `_middleware`, `_app`, `_404` or `_error`. */
export interface RouteModule<State = unknown> {
  /** The page component; in `_middleware`, the middleware (one function or an array). */
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<any> | Middleware<State>[];
  /** The route's handler; in `_middleware`, the middleware (one function or an array). */
  // deno-lint-ignore no-explicit-any
  handler?: RouteHandler<any, State> | Middleware<State>[];
}

/** The static manifest written to `fresh.gen.ts`. */
export interface Manifest {
  /** Route files by their path relative to `routes/`, e.g. `admin/[tab].tsx`. */
  routes: Record<string, RouteModule<never>>;
  /** Island modules by island name (`islandName()`: `console/Foo.tsx` → `console_Foo`). */
  islands: Record<string, { default: ComponentType<never> }>;
}

/** Typed helpers, as Fresh 2's `createDefine`, so routes never spell context types out. */
export interface Define<State> {
  /** A route handler, returned as is; `Data` is inferred from `page(data)` calls. */
  handlers<Data, Handlers extends RouteHandler<Data, State> = RouteHandler<Data, State>>(
    handlers: Handlers,
  ): Handlers;
  /** A page component; `define.page<typeof handler>` types `data` from the handler. */
  // deno-lint-ignore no-explicit-any
  page<T extends RouteHandler<any, State> = never>(
    page: (props: PageProps<PageData<T>, State>) => JSX.Element | null,
  ): (props: PageProps<PageData<T>, State>) => JSX.Element | null;
  /** Middleware for `_middleware`: one function or an array, returned as is. */
  middleware<M extends Middleware<State> | Middleware<State>[]>(middleware: M): M;
}

/** Creates the typed `define` helpers for an application's state type. */
export function createDefine<State>(): Define<State> {
  return {
    handlers: (handlers) => handlers,
    page: (page) => page,
    middleware: (middleware) => middleware,
  };
}
