/** HTTP error statuses, and the error that carries one. */

/** Each error status with its reason phrase (RFC 9110 and the registry's later additions). */
const REASONS = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  418: "I'm a Teapot",
  421: "Misdirected Request",
  422: "Unprocessable Entity",
  423: "Locked",
  424: "Failed Dependency",
  425: "Too Early",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  451: "Unavailable For Legal Reasons",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
  506: "Variant Also Negotiates",
  507: "Insufficient Storage",
  508: "Loop Detected",
  510: "Not Extended",
  511: "Network Authentication Required",
} as const;

/** A status an error may be answered with (as Fresh's `ErrorStatus`): a 4xx or 5xx. */
export type ErrorStatus = keyof typeof REASONS;
/** The statuses `ctx.redirect()` may answer with. */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

const ERROR_STATUSES: ReadonlySet<number> = new Set(Object.keys(REASONS).map(Number));

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
    super(message ?? REASONS[status] ?? `HTTP ${status}`, errorOptions);
    this.name = "HttpError";
    this.status = status;
    this.headers = headers;
  }
}

/** Whether a value is an HttpError. */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
