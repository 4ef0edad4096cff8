/**
 * Errors of a store backend that callers must tell apart.
 *
 * A database that cannot be reached (refused, dropped or timed-out connection, server shutting
 * down or not yet accepting connections) surfaces as {@link StoreUnavailableError}. Its message
 * says "temporarily unavailable", which `isPassingStoreError` (lib/store/transient.ts) already
 * treats as passing: the app answers 503 with Retry-After and workers try again.
 */

/** The store could not be reached; the operation did not happen and may be tried again. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`Store temporarily unavailable: ${detail}`, { cause });
    this.name = "StoreUnavailableError";
  }
}

/** True for an error that means the store cannot be reached right now. */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return error instanceof StoreUnavailableError;
}
