/**
 * Waits a platform asks for (Discord's `retry_after`, `Retry-After` and
 * `X-RateLimit-Reset-After`, Telegram's `parameters.retry_after`), all in
 * seconds, checked before anything waits on them: a value that is not a
 * finite, non-negative number is no wait at all (the caller falls back to a
 * plain retry), and a longer one is cut to {@link MAX_PLATFORM_DELAY_MS}. So a
 * hostile or broken answer can neither stall a lane for days nor make the
 * queue refuse the delay.
 */

/** The longest wait a platform can impose on a lane: one hour. */
export const MAX_PLATFORM_DELAY_MS = 60 * 60 * 1000;

const DECIMAL_SECONDS = /^\d{1,15}(\.\d{1,15})?$/;

/** A wait in seconds from a JSON answer, in milliseconds; null when it is not a usable number. */
export function platformDelayMs(seconds: unknown): number | null {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return null;
  return Math.min(MAX_PLATFORM_DELAY_MS, Math.ceil(seconds * 1000));
}

/** A wait in decimal seconds from a header, in milliseconds; null when absent or malformed. */
export function headerDelayMs(value: string | null): number | null {
  const text = value?.trim() ?? "";
  return DECIMAL_SECONDS.test(text) ? platformDelayMs(Number(text)) : null;
}
