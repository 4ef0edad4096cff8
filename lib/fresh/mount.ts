/**
 * Mounting: the manifest's routes on Hono in priority order, each behind the
 * middleware of its folders (outermost first), with the method map, HEAD →
 * GET, 405 with `Allow` (before the middleware runs: a method the route does not
 * answer is refused the same for everyone, signed in or not), and `page(data)`
 * results rendered as the route's page.
 * Fresh 2 features the layer lacks are refused first (`unsupported.ts`).
 */
import type { Context as HonoContext, Hono } from "hono";
import { RequestContext } from "./context.ts";
import type { ErrorResponder } from "./errors.ts";
import { HttpError } from "./http_error.ts";
import { page, type PageResponse } from "./page_response.ts";
import type { PageComponent, PageRenderer } from "./rendering.ts";
import {
  foldersOf,
  isSpecialFile,
  middlewareFolder,
  patternOf,
  sortRoutes,
} from "./route_table.ts";
import type { HandlerByMethod, Method, Middleware, RouteModule } from "./types.ts";
import { refuseUnsupported } from "./unsupported.ts";

/** What mounting needs from the application. */
interface MountOptions<State> {
  /** Route modules by path below `routes/`. */
  modules: Record<string, RouteModule<State>>;
  /** The request's state (created once per request). */
  stateOf(c: HonoContext): State;
  renderPage: PageRenderer;
  respondToError: ErrorResponder<State>;
}

type Endpoint<State> = (ctx: RequestContext<State>) => Promise<Response>;

/** Mounts every route of `options.modules` on `app`. */
export function mountRoutes<State>(app: Hono, options: MountOptions<State>): void {
  const { modules } = options;
  const middlewareByFolder = new Map<string, Middleware<State>[]>();
  for (const [file, mod] of Object.entries(modules)) {
    refuseUnsupported(file, mod);
    const folder = middlewareFolder(file);
    if (folder !== null) middlewareByFolder.set(folder, middlewareOf(mod, file));
  }
  const routes = Object.keys(modules).filter((file) => !isSpecialFile(file)).map(patternOf);
  for (const { file, pattern } of sortRoutes(routes)) {
    const mod = modules[file];
    const middleware = foldersOf(file).flatMap((folder) => middlewareByFolder.get(folder) ?? []);
    const pageComponent = mod.default as PageComponent | undefined;
    const { endpoint, refusesMethod } = endpointFor(mod, file);
    app.all(pattern, async (c) => {
      const state = options.stateOf(c);
      const req = c.req.raw;
      const params = c.req.param() as Record<string, string>;
      const ctx: RequestContext<State> = new RequestContext(req, params, state, (data, init) => {
        if (!pageComponent) throw new Error(`${file} has no page component to render`);
        const props = { data, req, url: ctx.url, params, state, error: null };
        return options.renderPage(pageComponent, props, init);
      });
      const run = (index: number): Promise<Response> => {
        if (index === middleware.length) return endpoint(ctx);
        ctx.next = () => run(index + 1);
        return Promise.resolve(middleware[index](ctx));
      };
      try {
        const refusal = refusesMethod(req.method);
        if (refusal) throw refusal;
        return await run(0);
      } catch (error) {
        const routeHasPage = pageComponent !== undefined;
        return options.respondToError(error, { req, url: ctx.url, params, state, routeHasPage });
      }
    });
  }
}

/**
 * The middleware a `_middleware` module exports, as Fresh 2 reads it:
 * `handler`, else the default export; one function or an array of them.
 */
function middlewareOf<State>(mod: RouteModule<State>, file: string) {
  const exported = mod.handler ?? mod.default;
  if (exported === undefined) return [];
  const list: unknown[] = Array.isArray(exported) ? exported : [exported];
  if (!list.every((fn) => typeof fn === "function")) {
    throw new Error(`routes/${file} must export a middleware function or an array of them`);
  }
  return list as Middleware<State>[];
}

/** A handler's result as a response: `page(data)` renders the route's page. */
function toResponse<State>(ctx: RequestContext<State>, result: Response | PageResponse<unknown>) {
  if (result instanceof Response) return result;
  return ctx.renderRoute(result.data, { status: result.status, headers: result.headers });
}

/**
 * A route's answer to a matched request (method map lookup, HEAD → GET), and the 405 with
 * `Allow` for a method its map lacks (null for an allowed method, or a handler function that
 * takes every method).
 */
function endpointFor<State>(
  mod: RouteModule<State>,
  file: string,
): { endpoint: Endpoint<State>; refusesMethod(method: string): HttpError | null } {
  const handler = mod.handler;
  if (Array.isArray(handler)) throw new Error(`routes/${file}: only middleware may be an array`);
  if (typeof handler === "function") {
    return {
      endpoint: async (ctx) => toResponse(ctx, await handler(ctx)),
      refusesMethod: () => null,
    };
  }
  const methods: HandlerByMethod<unknown, State> = { ...handler };
  if (!methods.GET && mod.default) methods.GET = () => page();
  const allowed = Object.keys(methods).filter((m) => methods[m as Method]);
  if (methods.GET && !methods.HEAD) allowed.push("HEAD");
  // The method comes from the client: only the module's own keys count (not `constructor`).
  const handlerOf = (method: string) =>
    (Object.hasOwn(methods, method) ? methods[method as Method] : undefined) ??
      (method === "HEAD" ? methods.GET : undefined);
  return {
    endpoint: async (ctx) => {
      const method = ctx.req.method;
      const res = toResponse(ctx, await handlerOf(method)!(ctx));
      return method === "HEAD" && !methods.HEAD ? new Response(null, res) : res;
    },
    refusesMethod: (method) =>
      handlerOf(method)
        ? null
        : new HttpError(405, "Method not allowed", { headers: { allow: allowed.join(", ") } }),
  };
}
