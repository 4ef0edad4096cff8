/**
 * Updates already taken from Telegram, shared by every instance: Telegram sends an update again
 * when its answer is late or lost, and the repeat may reach another instance, so taking one is
 * an atomic claim in the store. Telegram keeps an update for at most 24 hours, so the claim
 * expires after a day.
 *
 * Claims cannot grow from anonymous input: only a request carrying the webhook secret
 * (`X-Telegram-Bot-Api-Secret-Token`, checked before the body is read) with a well-formed update
 * claims one, and updates chat-ops ignores claim nothing. So the store holds at most one small
 * key per update Telegram delivered in the last day: the bot's own traffic.
 */
import type { Kv } from "../backend/types.ts";
import { telegramUpdateKey } from "../keys.ts";

/** How long a taken update is remembered. */
export const UPDATE_MEMORY_MS = 24 * 60 * 60 * 1000;

/** True for the first instance to take `updateId`; false for a repeat. */
export async function claimTelegramUpdate(kv: Kv, updateId: number): Promise<boolean> {
  const key = telegramUpdateKey(updateId);
  const result = await kv.atomic()
    .check({ key, versionstamp: null })
    .set(key, Date.now(), { expireIn: UPDATE_MEMORY_MS })
    .commit();
  return result.ok;
}
