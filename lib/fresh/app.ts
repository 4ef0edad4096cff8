/**
 * The conventions layer on Hono: mounts the manifest's routes in priority
 * order, runs folder middleware, renders pages inside `_app`, and turns
 * thrown errors into the right response (JSON `{ error }` for API requests,
 * the error page for pages).
 */
import { Hono } from "hono";
import type { Context as HonoContext } from "hono";
import { serveStatic } from "hono/deno";
import { type ComponentType, h } from "preact";
import { type Assets, BUILD_DIR } from "./assets.ts";
import { ownValue } from "../own_value.ts";
import { HttpError, isHttpError } from "./http_error.ts";
import { registerIslands, renderDocument } from "./render.ts";
import { foldersOf, isSpecialFile, patternOf, sortRoutes } from "./route_table.ts";
import type { Context, HandlerFn, HandlerMap, Manifest, RouteModule } from "./types.ts";

/** How to build a Fresh-style application. */
export interface FreshAppOptions<State> {
  manifest: Manifest;
  assets: Assets;
  /** The project root: `static/` and the build folder are served from below it. */
  root: string;
  /** Creates the per-request state before any middleware runs. */
  createState(req: Request): State;
  /** Whether an unmatched or failing request expects JSON rather than a page. */
  isApiPath(pathname: string): boolean;
  /** Reports an unexpected exception (the response says only "Internal server error"). */
  onUnexpectedError(error: unknown, req: Request, state: State): void;
  /** Middleware that runs before routing, for every request (request id, logging). */
  // deno-lint-ignore no-explicit-any
  before?: (c: HonoContext<any>, next: () => Promise<void>) => Promise<void | Response>;
}

// deno-lint-ignore no-explicit-any
type AnyComponent = ComponentType<any>;
type Module<State> = RouteModule<State>;

const STATE_KEY = "freshState";
const IMMUTABLE = "public, max-age=31536000, immutable";
/**
 * The methods the app answers; any other is refused before routing (the router looks methods
 * up in plain objects, where a method such as `constructor` would reach an inherited member).
 */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Builds the Hono application for a manifest. */
export function createFreshApp<State>(options: FreshAppOptions<State>): Hono {
  const { manifest } = options;
  registerIslands(
    Object.fromEntries(
      Object.entries(manifest.islands).map((
        [file, mod],
      ) => [file.replace(/\.[jt]sx?$/, ""), mod.default as AnyComponent]),
    ),
  );
  const modules = manifest.routes as Record<string, Module<State>>;
  const special = (name: string) => modules[name];
  const appComponent = special("_app.tsx")?.default;
  const notFoundPage = special("_404.tsx")?.default;
  const errorPage = special("_error.tsx")?.default;

  const app = new Hono({ strict: false });
  const stateOf = (c: HonoContext): State => {
    let state = c.get(STATE_KEY as never) as State | undefined;
    if (state === undefined) {
      state = options.createState(c.req.raw);
      c.set(STATE_KEY as never, state as never);
    }
    return state;
  };

  const renderPage = (
    page: AnyComponent,
    props: Record<string, unknown>,
    init?: ResponseInit,
  ): Response => {
    const tree = appComponent
      ? h(appComponent, { ...props, Component: () => h(page, props) })
      : h(page, props);
    const headers = new Headers(init?.headers);
    headers.set("content-type", "text/html; charset=utf-8");
    return new Response(renderDocument(tree, options.assets), { ...init, headers });
  };

  const errorResponse = (
    error: unknown,
    req: Request,
    state: State,
    asPage: boolean,
  ): Response => {
    let status = 500;
    let message = "Internal server error";
    let headers: HeadersInit | undefined;
    if (isHttpError(error)) {
      ({ status, message, headers } = error);
    } else {
      options.onUnexpectedError(error, req, state);
    }
    const page = status === 404 && notFoundPage ? notFoundPage : errorPage;
    if (asPage && page) {
      const url = new URL(req.url);
      return renderPage(page, { status, message, url, state }, { status, headers });
    }
    return Response.json({ error: message }, { status, headers });
  };

  const wantsPage = (req: Request, pathname: string) =>
    !options.isApiPath(pathname) && (req.headers.get("accept") ?? "").includes("text/html");

  if (options.before) app.use("*", options.before);
  app.use(
    `/${BUILD_DIR}/*`,
    async (c, next) => {
      await next();
      if (c.res.ok) setHeader(c, "cache-control", IMMUTABLE);
    },
    serveStatic({ root: options.root }),
  );

  const entries = sortRoutes(
    Object.keys(modules).filter((file) => !isSpecialFile(file)).map(patternOf),
  );
  for (const entry of entries) {
    const mod = modules[entry.file];
    const middleware = foldersOf(entry.file)
      .map((folder) => modules[folder ? `${folder}/_middleware.ts` : "_middleware.ts"])
      .filter((m): m is Module<State> => typeof m?.handler === "function")
      .map((m) => m.handler as HandlerFn<State>);
    const hasPage = mod.default !== undefined;
    const endpoint = endpointFor(mod);
    app.all(entry.pattern, async (c) => {
      const state = stateOf(c);
      const req = c.req.raw;
      const ctx = {
        req,
        url: new URL(req.url),
        params: c.req.param() as Record<string, string>,
        state,
        render(data?: unknown, init?: ResponseInit) {
          if (!mod.default) throw new Error(`${entry.file} has no page component`);
          return renderPage(mod.default, { data, url: ctx.url, params: ctx.params, state }, init);
        },
        next: () => Promise.reject(new Error("next() called outside middleware")),
      } as Context<State>;
      const run = (index: number): Promise<Response> => {
        if (index === middleware.length) return Promise.resolve(endpoint(ctx));
        (ctx as { next: () => Promise<Response> }).next = () => run(index + 1);
        return Promise.resolve(middleware[index](ctx));
      };
      try {
        return await run(0);
      } catch (error) {
        return errorResponse(error, req, state, hasPage || wantsPage(req, c.req.path));
      }
    });
  }

  app.use("*", serveStatic({ root: `${options.root}/static` }));
  app.notFound((c) =>
    errorResponse(
      new HttpError(404, "Not found"),
      c.req.raw,
      stateOf(c),
      wantsPage(c.req.raw, c.req.path),
    )
  );
  app.onError((error, c) =>
    errorResponse(error, c.req.raw, stateOf(c), wantsPage(c.req.raw, c.req.path))
  );
  const dispatch = app.fetch;
  app.fetch = (req, ...rest) => {
    if (KNOWN_METHODS.has(req.method)) return dispatch(req, ...rest);
    const refusal = new HttpError(405, "Method not allowed");
    return errorResponse(refusal, req, options.createState(req), false);
  };
  return app;
}

/** The function that answers a matched request: method map lookup, HEAD → GET, 405. */
function endpointFor<State>(mod: Module<State>): HandlerFn<State> {
  const handler = mod.handler;
  if (typeof handler === "function") return handler;
  const methods: HandlerMap<State> = { ...handler };
  if (!methods.GET && mod.default) methods.GET = (ctx) => ctx.render();
  const allowed = Object.keys(methods).filter((m) => methods[m]);
  if (methods.GET && !methods.HEAD) allowed.push("HEAD");
  return async (ctx) => {
    const method = ctx.req.method;
    const fn = ownValue(methods, method) ?? (method === "HEAD" ? methods.GET : undefined);
    if (!fn) {
      throw new HttpError(405, "Method not allowed", { allow: allowed.join(", ") });
    }
    const res = await fn(ctx);
    return method === "HEAD" && !methods.HEAD ? new Response(null, res) : res;
  };
}

/** Sets a response header, copying the response first when its headers are immutable. */
export function setHeader(c: HonoContext, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    const copy = new Response(c.res.body, c.res);
    copy.headers.set(name, value);
    c.res = copy;
  }
}
