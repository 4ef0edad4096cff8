/**
 * Retrying store work that failed for a passing reason. Several instances on
 * one KV file (or a remote KV under load) sometimes answer an operation with
 * an error such as SQLite's "database is locked"; such a write did not happen
 * and can simply be made again. Delivery and chat handlers retry in process rather
 * than give up a lane's lease or a fan-out's place in the order.
 */
import type { Logger } from "../log.ts";

/** How often an operation is tried before its error is let through. */
const TRANSIENT_ATTEMPTS = 8;

const PASSING = /database is locked|busy|temporar|timed? ?out|connection|network/i;

/** True for an error a store gives when it is busy or briefly unreachable. */
export function isPassingStoreError(error: unknown): boolean {
  return error instanceof Error && PASSING.test(error.message);
}

/**
 * Runs `operation`, trying again (up to {@link TRANSIENT_ATTEMPTS} times) when it throws a
 * passing store error; any other error is let through at once.
 */
export async function retryTransient<T>(
  log: Logger,
  what: string,
  operation: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= TRANSIENT_ATTEMPTS || !isPassingStoreError(error)) throw error;
      log.warn("store operation failed; trying again", { what, attempt, error });
      await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 20 * 2 ** attempt)));
    }
  }
}
