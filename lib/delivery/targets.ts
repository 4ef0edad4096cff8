/**
 * Identities derived from a unit's parts: its send log id and its Discord nonce (its lane is
 * `laneKeyFor` in lib/target_ref.ts). All are deterministic, so running a fan-out again finds
 * the units it already made.
 */
import { sha256Hex } from "../crypto.ts";
import { laneKeyFor } from "../target_ref.ts";
import type { Route, Target } from "../types.ts";

/** Discord's longest accepted message nonce. */
const NONCE_LENGTH = 25;

/**
 * The send log id of the unit delivering `eventId` through `route` to
 * `target`: the event's ulid (so ids sort by acceptance time) and a short hash
 * of the group, route and target. A route that names the same target twice
 * makes one unit.
 */
export async function unitIdFor(eventId: string, route: Route, target: Target): Promise<string> {
  const identity = JSON.stringify([route.groupId, route.id, laneKeyFor(target), target]);
  return `${eventId}-${(await sha256Hex(identity)).slice(0, 10)}`;
}

/** The Discord message nonce of a unit: the same on every attempt, at most 25 characters. */
export async function discordNonceFor(logId: string): Promise<string> {
  return (await sha256Hex(logId)).slice(0, NONCE_LENGTH);
}
