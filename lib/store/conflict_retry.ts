/**
 * Retrying a read-check-write whose commit lost the race to another write: the attempt reads
 * again and writes again, a bounded number of times.
 */

/** Attempts of one change before it is given up. */
const CONFLICT_ATTEMPTS = 5;

/**
 * Runs `attempt` until it answers anything but "conflict" (at most {@link CONFLICT_ATTEMPTS}
 * times) and returns that; throws an error with `message` when every attempt conflicted.
 */
export async function retryOnConflict<T>(
  attempt: () => Promise<T | "conflict">,
  message: string,
): Promise<T> {
  for (let tried = 0; tried < CONFLICT_ATTEMPTS; tried++) {
    const outcome = await attempt();
    if (outcome !== "conflict") return outcome;
  }
  throw new Error(message);
}
