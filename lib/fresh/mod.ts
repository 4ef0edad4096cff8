/**
 * The conventions layer: Fresh 2's route conventions on Hono. This module is
 * what routes import, as a Fresh 2 project imports `fresh`; `lib/state.ts`
 * holds the project's `define`.
 *
 * As in Fresh 2: `routes/` with `[param]` and `[...rest]`, `index`, a
 * `handler` export (one function or a method map; HEAD → GET; 405 with
 * `Allow`) returning a `Response` or `page(data, init)`, the default page
 * component, `define.handlers` / `define.page<typeof handler>` /
 * `define.middleware`, `ctx.redirect()`, `HttpError` with an `ErrorStatus`,
 * `_app`, `_404`, `_error` (receives `props.error`), `_middleware` (`handler`
 * or default export, one function or an array), islands below `islands/`.
 *
 * Where it still differs (docs/fresh_layer.md lists the edits to move to
 * Fresh 2):
 * - Runs on Hono; the app comes from `createFreshApp()` over the generated
 *   `fresh.gen.ts`, built by `dev.ts` (esbuild, Tailwind CLI), not from
 *   `new App().fsRoutes()` and Fresh's builder. `isApiPath`, `before` and
 *   `onUnexpectedError` stand in for `app.use()` and error middleware.
 * - Errors on API paths (`isApiPath`), or from handler-only routes to clients
 *   that do not accept HTML, answer JSON `{ error }` rather than the page.
 * - `HttpError`'s third argument is response headers (Fresh 2: `ErrorOptions`).
 * - `ctx.redirect()` sends addresses on other origins to `/` (Fresh 2 follows
 *   them).
 * - The context has `req`, `url`, `params`, `state`, `next`, `redirect`
 *   only (no `config`, `info`, `route`, `error`, `isPartial`, `text`/`json`/
 *   `html`/`stream`/`upgrade`); page props lack `config`, `info`, `isPartial`.
 * - Not supported: a `handlers` export, `_layout`, route groups `(name)`,
 *   `(_islands)` folders, route `config`, async page components, partials.
 * - Islands: the default export of each file below `islands/`, named by path
 *   (`console/Foo.tsx` → `console_Foo`); props must be JSON; roots are marked
 *   with `<sy-island>` elements instead of HTML comments.
 * - Security headers (CSP, frame and sniffing protection) are always set
 *   (Fresh 2: the opt-in `csp()` middleware).
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
export {
  type ErrorStatus,
  HttpError,
  isErrorStatus,
  isHttpError,
  type RedirectStatus,
} from "./http_error.ts";
