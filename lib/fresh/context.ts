/** The per-request context handlers and middleware receive. */
import type { RedirectStatus } from "./http_error.ts";
import { redirectResponse } from "./redirect.ts";
import type { Context } from "./types.ts";

/** Renders the matched route's page with `data` (an error when the route has none). */
type RouteRenderer = (data: unknown, init?: ResponseInit) => Response;

/** A request's context; mounting sets `next` as it walks the middleware. */
export class RequestContext<State> implements Context<State> {
  readonly url: URL;
  next: () => Promise<Response> = () =>
    Promise.reject(new Error("next() called outside middleware"));

  constructor(
    readonly req: Request,
    readonly params: Record<string, string>,
    readonly state: State,
    /** Renders the route's page; used for `page(data)` results. */
    readonly renderRoute: RouteRenderer,
  ) {
    this.url = new URL(req.url);
  }

  redirect(pathOrUrl: string, status: RedirectStatus = 302): Response {
    return redirectResponse(pathOrUrl, this.url, status);
  }
}
