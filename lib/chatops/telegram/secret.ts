/**
 * The webhook's shared secret: Telegram sends the `secret_token` given to `setWebhook` in
 * `X-Telegram-Bot-Api-Secret-Token` with every update. Both sides are hashed before the
 * constant-time comparison, so neither the content nor the length of the secret shows in
 * the time an answer takes.
 */
import { timingSafeEqual } from "../../crypto.ts";
import { utf8 } from "../../encoding.ts";

/** The header Telegram puts the secret in. */
export const SECRET_HEADER = "x-telegram-bot-api-secret-token";

/** Longest header value looked at (the secret itself is at most 256 characters). */
const MAX_HEADER_CHARS = 256;

async function digest(value: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(value)));
}

/** Whether the header holds exactly the configured secret (false when it is absent). */
export async function secretMatches(header: string | null, secret: string): Promise<boolean> {
  if (header === null || header.length === 0 || header.length > MAX_HEADER_CHARS) return false;
  const [given, expected] = await Promise.all([digest(header), digest(secret)]);
  return timingSafeEqual(given, expected);
}
