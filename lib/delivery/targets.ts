/**
 * The identity derived from a unit's parts: its send log id (its lane is `laneKeyFor` in
 * lib/target_ref.ts, its Discord nonce `discordNonceFor` in lib/discord/adapter.ts). It is
 * deterministic, so running a fan-out again finds the units it already made.
 */
import { sha256Hex } from "../crypto.ts";
import { laneKeyFor } from "../target_ref.ts";
import type { Route, Target } from "../types.ts";

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
