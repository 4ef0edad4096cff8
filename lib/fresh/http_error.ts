/** HTTP statuses by class, and the error that carries one. */
import { STATUS_CODES } from "node:http";

// deno-fmt-ignore
const CLIENT_ERROR_STATUSES = [
  400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418,
  421, 422, 423, 424, 425, 426, 428, 429, 431, 451,
] as const;
const SERVER_ERROR_STATUSES = [500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511] as const;

/** The 4xx statuses. */
type ClientErrorStatus = typeof CLIENT_ERROR_STATUSES[number];
/** The 5xx statuses. */
type ServerErrorStatus = typeof SERVER_ERROR_STATUSES[number];
/** A status an error may be answered with (as Fresh's `ErrorStatus`). */
export type ErrorStatus = ClientErrorStatus | ServerErrorStatus;
/** The statuses `ctx.redirect()` may answer with. */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

const ERROR_STATUSES: ReadonlySet<number> = new Set([
  ...CLIENT_ERROR_STATUSES,
  ...SERVER_ERROR_STATUSES,
]);

/** Whether a number is an error status (for statuses that arrive from elsewhere, e.g. an upstream API). */
export function isErrorStatus(status: number): status is ErrorStatus {
  return ERROR_STATUSES.has(status);
}

/** `HttpError`'s options: Fresh 2's `ErrorOptions` (`cause`), plus extra response headers. */
export interface HttpErrorOptions extends ErrorOptions {
  /** Extra headers for the error response (for example `Allow` or `WWW-Authenticate`). */
  headers?: HeadersInit;
}

/**
 * An error that carries the HTTP status it should be answered with: JSON
 * `{ error: message }` for API requests, the `_error` page (which receives
 * the error as `props.error`) for pages.
 */
export class HttpError extends Error {
  /** The HTTP status: 4xx or 5xx. */
  readonly status: ErrorStatus;
  /** Extra headers for the error response (`options.headers`). */
  readonly headers: HeadersInit | undefined;

  /**
   * @param status HTTP status of the response.
   * @param message Shown to the client as `{ error: message }` or on the error page; the
   *   status text (`Not Found`) when left out.
   * @param options `cause` (as `ErrorOptions`) and `headers`, extra response headers.
   */
  constructor(status: ErrorStatus, message?: string, options?: HttpErrorOptions) {
    const { headers, ...errorOptions } = options ?? {};
    super(message ?? STATUS_CODES[status] ?? `HTTP ${status}`, errorOptions);
    this.name = "HttpError";
    this.status = status;
    this.headers = headers;
  }
}

/** Whether a value is an HttpError. */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
