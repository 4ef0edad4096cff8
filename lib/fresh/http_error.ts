/** An error that carries the HTTP status it should be answered with. */
export class HttpError extends Error {
  /** The HTTP status code, 400..599. */
  readonly status: number;
  /** Extra headers for the error response (for example `Allow` or `WWW-Authenticate`). */
  readonly headers: HeadersInit | undefined;

  /**
   * @param status HTTP status of the response.
   * @param message Shown to the client as `{ error: message }` or on the error page.
   */
  constructor(status: number, message: string, headers?: HeadersInit) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.headers = headers;
  }
}

/** Whether a value is an HttpError (also across module copies). */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
