/**
 * Discord interactions already taken, shared by every instance: a signed interaction stays
 * valid for the five minutes its timestamp is accepted, so whoever captured one could send it
 * again. Taking an interaction is an atomic claim of its id, remembered a little longer than
 * that window; a second claim of the same id fails.
 */
import type { Kv } from "../backend/types.ts";

/** How long a taken interaction id is remembered: the signature window and a minute more. */
export const INTERACTION_MEMORY_MS = 6 * 60 * 1000;

/** Discord ids are snowflakes: decimal, at most 20 digits. */
const SNOWFLAKE = /^\d{1,20}$/;

/** The key of a taken interaction id. */
export const interactionIdKey = (interactionId: string) =>
  ["discord_interactions", interactionId] as const;

/**
 * True for the first claim of `interactionId`; false for a repeat, and for anything that is not
 * a snowflake (nothing is stored for it).
 */
export async function claimInteractionId(
  kv: Kv,
  interactionId: string,
  now: number = Date.now(),
): Promise<boolean> {
  if (!SNOWFLAKE.test(interactionId)) return false;
  const key = interactionIdKey(interactionId);
  const result = await kv.atomic()
    .check({ key, versionstamp: null })
    .set(key, now, { expireIn: INTERACTION_MEMORY_MS })
    .commit();
  return result.ok;
}
