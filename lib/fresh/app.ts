/**
 * The application: security headers on every answer, the host's `before`
 * hook, the built assets, the manifest's routes (`mount.ts`), `static/`, and
 * unknown paths and stray errors through error handling (`errors.ts`).
 * Where the layer differs from Fresh 2: docs/fresh_layer.md.
 */
import { Hono } from "hono";
import type { Context as HonoContext } from "hono";
import { serveStatic } from "hono/deno";
import { type Assets, BUILD_DIR } from "./assets.ts";
import { createErrorResponder } from "./errors.ts";
import { HttpError } from "./http_error.ts";
import { mountRoutes } from "./mount.ts";
import { islandRegistry } from "./render.ts";
import { createPageRenderer, type PageComponent } from "./rendering.ts";
import { MethodSafeRouter } from "./router.ts";
import { securityHeadersFor } from "./security_headers.ts";
import type { Manifest, RouteModule } from "./types.ts";

/** How to build a Fresh-style application. */
interface FreshAppOptions<State> {
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
  /** The answer for an error that is not an `HttpError` but is understood (see errors.ts). */
  answerFor?(error: unknown): HttpError | null;
  /** Middleware that runs before routing, for every request (request id, logging). */
  // deno-lint-ignore no-explicit-any
  before?: (c: HonoContext<any>, next: () => Promise<void>) => Promise<void | Response>;
}

const STATE_KEY = "freshState";
const IMMUTABLE = "public, max-age=31536000, immutable";

/** Builds the Hono application for a manifest. */
export function createFreshApp<State>(options: FreshAppOptions<State>): Hono {
  const modules = options.manifest.routes as Record<string, RouteModule<State>>;
  const pageOf = (file: string) => modules[file]?.default as PageComponent | undefined;
  const islands = islandRegistry(options.manifest.islands);
  const renderPage = createPageRenderer(pageOf("_app.tsx"), options.assets, islands);
  const respondToError = createErrorResponder<State>({
    notFoundPage: pageOf("_404.tsx"),
    errorPage: pageOf("_error.tsx"),
    renderPage,
    isApiPath: options.isApiPath,
    onUnexpectedError: options.onUnexpectedError,
    answerFor: options.answerFor,
  });
  const stateOf = (c: HonoContext): State => {
    let state = c.get(STATE_KEY as never) as State | undefined;
    if (state === undefined) {
      state = options.createState(c.req.raw);
      c.set(STATE_KEY as never, state as never);
    }
    return state;
  };
  const failedRequest = (c: HonoContext) => ({
    req: c.req.raw,
    url: new URL(c.req.url),
    params: {},
    state: stateOf(c),
    routeHasPage: false,
  });

  const app = new Hono({ strict: false, router: new MethodSafeRouter() });
  app.use("*", async (c, next) => {
    await next();
    for (const [name, value] of securityHeadersFor(c.res.headers.get("content-type"))) {
      setHeader(c, name, value);
    }
  });
  if (options.before) app.use("*", options.before);
  app.use(
    `/${BUILD_DIR}/*`,
    async (c, next) => {
      await next();
      if (c.res.ok) setHeader(c, "cache-control", IMMUTABLE);
    },
    serveStatic({ root: options.root }),
  );
  mountRoutes(app, { modules, stateOf, renderPage, respondToError });
  app.use("*", serveStatic({ root: `${options.root}/static` }));
  app.notFound((c) => respondToError(new HttpError(404, "Not found"), failedRequest(c)));
  app.onError((error, c) => respondToError(error, failedRequest(c)));
  return app;
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
