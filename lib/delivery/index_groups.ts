/**
 * How an event's change reaches the indexes of open work (issues, pull requests) of each group
 * it entered: once per group, a full index or a failure logged as a warning and never thrown,
 * so indexing never holds delivery up.
 */
import type { Logger } from "../log.ts";
import type { ForgeEvent } from "../types.ts";

/**
 * Runs `apply` (false: the index was full) for each of `internalIds` once, warning under
 * `index` ("issue index") when the entry was left out or the change failed.
 */
export async function applyToEachGroup(
  log: Logger,
  index: string,
  event: ForgeEvent,
  internalIds: readonly string[],
  apply: (internalId: string) => Promise<boolean>,
): Promise<void> {
  for (const internalId of new Set(internalIds)) {
    try {
      if (!await apply(internalId)) {
        log.warn(`${index} full; entry left out`, { eventId: event.id });
      }
    } catch (error) {
      log.warn(`${index} not updated`, { eventId: event.id, error });
    }
  }
}
