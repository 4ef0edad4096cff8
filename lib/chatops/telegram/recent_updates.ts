/**
 * Updates already taken, so an update Telegram sends again (it retries when an answer is
 * late or lost) does not comment or merge twice. Kept in memory for the most recent ids of
 * each bot: a retry comes within minutes, and ids increase.
 */

/** How many recent update ids are remembered. */
const REMEMBERED = 2048;

/** A bounded set of recently seen update ids. */
export class RecentUpdates {
  readonly #seen = new Set<number>();

  /** True the first time an id is seen; false for a repeat. */
  take(updateId: number): boolean {
    if (this.#seen.has(updateId)) return false;
    this.#seen.add(updateId);
    if (this.#seen.size > REMEMBERED) {
      const oldest = this.#seen.values().next().value!;
      this.#seen.delete(oldest);
    }
    return true;
  }
}
