/**
 * The Switchyard application: the manifest's routes on the conventions layer,
 * with request ids, one log line per request and the shared services in state.
 */
import type { Kv } from "./store/backend/types.ts";
import type { Hono } from "hono";
import manifest from "../fresh.gen.ts";
import type { Config } from "./config.ts";
import { folderOf } from "./file_path.ts";
import { createFreshApp, setHeader } from "./fresh/app.ts";
import { type Assets, NO_ASSETS } from "./fresh/assets.ts";
import type { Logger } from "./log.ts";
import { HttpError } from "./fresh/http_error.ts";
import { isNoStorePath } from "./no_store.ts";
import { isPassingStoreError } from "./store/transient.ts";
import type { State } from "./state.ts";
import { type Adapters, createAdapters } from "./delivery/adapters.ts";

/** What the application needs from its host. */
interface AppDeps {
  kv: Kv;
  config: Config;
  log: Logger;
  assets?: Assets;
  /** The chat platforms' adapters, shared with the delivery worker (default: new ones). */
  adapters?: Adapters;
}

/** The project root (where `static/` and `_fresh/` live). */
export const PROJECT_ROOT = folderOf(import.meta.dirname!);

const API_PREFIXES = [
  "/api/",
  "/admin/api/",
  "/webhook",
  "/auth/token/",
  "/discord/",
  "/telegram/",
];
const API_PATHS = new Set(["/health", "/metrics", "/openapi.json"]);
const REQUEST_ID = /^[\w.:-]{8,128}$/;

/** Whether a path is answered with JSON rather than pages, even for errors. */
export function isApiPath(pathname: string): boolean {
  return API_PATHS.has(pathname) || API_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/** The connection's address from `Deno.serve`'s handler info (absent in in-process calls). */
function remoteAddressOf(env: unknown): string | undefined {
  const remote = (env as { remoteAddr?: { hostname?: unknown } } | undefined)?.remoteAddr;
  return typeof remote?.hostname === "string" ? remote.hostname : undefined;
}

/** Builds the application; `app.fetch` is the whole HTTP surface. */
export function createApp(deps: AppDeps): Hono {
  const { kv, config, log } = deps;
  const adapters = deps.adapters ?? createAdapters(config);
  const stateKey = new WeakMap<Request, State>();
  const createState = (req: Request): State => {
    let state = stateKey.get(req);
    if (!state) {
      const incoming = req.headers.get("x-request-id");
      const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
      state = { requestId, kv, config, log: log.with({ requestId }), adapters };
      stateKey.set(req, state);
    }
    return state;
  };
  return createFreshApp<State>({
    manifest,
    assets: deps.assets ?? NO_ASSETS,
    root: PROJECT_ROOT,
    createState,
    isApiPath,
    onUnexpectedError(error, req, state) {
      const where = { method: req.method, path: new URL(req.url).pathname };
      // The store being away for a moment is answered 503 and is no bug: one line, no stack.
      if (isPassingStoreError(error)) {
        state.log.warn("request refused: store unavailable", { ...where, error: String(error) });
      } else state.log.error("unexpected error", { error, ...where });
    },
    answerFor: (error) =>
      isPassingStoreError(error)
        ? new HttpError(503, "Temporarily unavailable: try again in a moment", {
          headers: { "retry-after": "1" },
          cause: error,
        })
        : null,
    async before(c, next) {
      const started = performance.now();
      const state = createState(c.req.raw);
      state.remoteAddress = remoteAddressOf(c.env);
      await next();
      setHeader(c, "x-request-id", state.requestId);
      if (isNoStorePath(c.req.path)) setHeader(c, "cache-control", "no-store");
      state.log.info("request", {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
    },
  });
}
