/**
 * The shapes route modules export, mirroring Fresh 2: `handler` (a method map
 * or one function), a default page component, `_middleware`, `_app`, `_404`
 * and `_error`.
 */
import type { ComponentType, JSX } from "preact";

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
  /** Renders the route's page (inside `_app`) with `data`, as a full HTML response. */
  render(data?: unknown, init?: ResponseInit): Response;
  /** Calls the next middleware or the route handler (only meaningful in middleware). */
  next(): Promise<Response>;
}

/** A handler for one method. */
export type HandlerFn<State> = (ctx: Context<State>) => Response | Promise<Response>;

/** A map of HTTP methods to handlers. */
export type HandlerMap<State> = Partial<Record<string, HandlerFn<State>>>;

/** What a route module may export as `handler`. */
export type Handler<State> = HandlerFn<State> | HandlerMap<State>;

/** Props a page component receives. */
export interface PageProps<Data = unknown, State = unknown> {
  data: Data;
  url: URL;
  params: Record<string, string>;
  state: State;
}

/** Props the `_app` wrapper receives. */
export interface AppProps<State = unknown> extends PageProps<unknown, State> {
  /** The page, already bound to its props. */
  Component: () => JSX.Element;
}

/** Props the `_error` and `_404` pages receive. */
export interface ErrorPageProps<State = unknown> {
  status: number;
  message: string;
  url: URL;
  state: State;
}

/** A module under `routes/`. */
export interface RouteModule<State = unknown> {
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<any>;
  handler?: Handler<State>;
}

/** The static manifest written to `fresh.gen.ts`. */
export interface Manifest {
  /** Route files by their path relative to `routes/`, e.g. `admin/[tab].tsx`. */
  routes: Record<string, RouteModule<never>>;
  /** Island modules by their file name, e.g. `PathTester.tsx`. */
  islands: Record<string, { default: ComponentType<never> }>;
}

/** Typed helpers, as Fresh's `createDefine`, so routes never spell context types out. */
export interface Define<State> {
  handlers<T extends Handler<State>>(handlers: T): T;
  middleware(fn: HandlerFn<State>): HandlerFn<State>;
  page<Data = unknown>(
    page: (props: PageProps<Data, State>) => JSX.Element,
  ): (props: PageProps<Data, State>) => JSX.Element;
}

/** Creates the typed `define` helpers for an application's state type. */
export function createDefine<State>(): Define<State> {
  return {
    handlers: (handlers) => handlers,
    middleware: (fn) => fn,
    page: (page) => page,
  };
}
