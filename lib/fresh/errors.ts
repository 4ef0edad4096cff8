/**
 * Error handling: a thrown error becomes its answer. An `HttpError` answers
 * its status and message; an error the application understands (`answerFor`,
 * for example a busy store) is reported and answers what it maps it to;
 * anything else is reported and answers 500 "Internal server error", never its
 * internals. Pages get the `_404` page (for
 * 404) or the `_error` page, which receive the error as `props.error`; API
 * requests, and requests for a page that ask for JSON and not HTML, get JSON
 * `{ error: message }`.
 */
import { acceptsHtml, asksForJsonOnly } from "./accept.ts";
import { type HttpError, isHttpError } from "./http_error.ts";
import type { PageComponent, PageRenderer } from "./rendering.ts";

/** What error handling needs from the application. */
interface ErrorHandlingOptions<State> {
  notFoundPage?: PageComponent;
  errorPage?: PageComponent;
  renderPage: PageRenderer;
  /** Whether a path answers JSON even to a browser. */
  isApiPath(pathname: string): boolean;
  /** Reports an unexpected exception (the response says only "Internal server error"). */
  onUnexpectedError(error: unknown, req: Request, state: State): void;
  /** The answer for an error that is not an `HttpError` but is understood, or null. */
  answerFor?(error: unknown): HttpError | null;
}

/** The request that failed. */
interface FailedRequest<State> {
  req: Request;
  url: URL;
  params: Record<string, string>;
  state: State;
  /** Whether the matched route has a page: then errors answer pages unless JSON alone is asked for. */
  routeHasPage: boolean;
}

/** Turns an error thrown while answering a request into the response. */
export type ErrorResponder<State> = (error: unknown, request: FailedRequest<State>) => Response;

const INTERNAL_ERROR = "Internal server error";

/** The error responder for an application's error pages. */
export function createErrorResponder<State>(
  options: ErrorHandlingOptions<State>,
): ErrorResponder<State> {
  /**
   * Whether the error is answered with a page: the route has one (unless the request asks for
   * JSON and not HTML), or a browser asked a non-API path.
   */
  const answersWithPage = ({ req, url, routeHasPage }: FailedRequest<State>) =>
    routeHasPage ? !asksForJsonOnly(req) : acceptsHtml(req) && !options.isApiPath(url.pathname);

  return (error, request) => {
    let status = 500;
    let message = INTERNAL_ERROR;
    let headers: HeadersInit | undefined;
    /** What the error page shows: the error, or the answer an understood error maps to. */
    let shown = error;
    if (isHttpError(error)) {
      ({ status, message, headers } = error);
    } else {
      options.onUnexpectedError(error, request.req, request.state);
      const known = options.answerFor?.(error);
      if (known) ({ status, message, headers } = shown = known);
    }
    const page = status === 404 && options.notFoundPage ? options.notFoundPage : options.errorPage;
    if (page && answersWithPage(request)) {
      const { req, url, params, state } = request;
      const props = { data: undefined, req, url, params, state, error: shown };
      return options.renderPage(page, props, { status, headers });
    }
    return Response.json({ error: message }, { status, headers });
  };
}
