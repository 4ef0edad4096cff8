/**
 * The conventions layer: Fresh 2's route conventions on Hono. This module is
 * what routes import, as a Fresh 2 project imports `fresh`; `lib/state.ts`
 * holds the project's `define`. What matches Fresh 2 and every difference:
 * docs/fresh_layer.md.
 */
export { createDefine } from "./types.ts";
export type {
  Context,
  Define,
  HandlerByMethod,
  HandlerFn,
  Method,
  Middleware,
  PageProps,
  RouteData,
  RouteHandler,
} from "./types.ts";
export { page, type PageResponse } from "./page_response.ts";
export { acceptsHtml, asksForJsonOnly } from "./accept.ts";
export {
  type ErrorStatus,
  HttpError,
  type HttpErrorOptions,
  isErrorStatus,
  isHttpError,
  type RedirectStatus,
} from "./http_error.ts";
