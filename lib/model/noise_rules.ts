/**
 * The rules of a route's noise options (docs/noise.md) without zod, shared by the API's
 * schemas (`noise_options.ts`) and the console's form. Browser-safe.
 */

/** Longest digest window: one day. */
export const MAX_DIGEST_WINDOW_SECONDS = 86_400;
/** Smallest digest threshold: thresholds are positive integers. */
export const MIN_DIGEST_THRESHOLD = 1;
/** Largest digest threshold. */
export const MAX_DIGEST_THRESHOLD = 1000;
/** A local time of day, `HH:MM` on a 24-hour clock. */
export const CLOCK_TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
/** Longest IANA time zone name accepted. */
const MAX_TIME_ZONE_LENGTH = 64;
const TIME_ZONE_CHARS = /^[A-Za-z0-9_+\-/]+$/;

/** Whether `name` is a time zone this runtime knows (IANA names, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (name.length > MAX_TIME_ZONE_LENGTH || !TIME_ZONE_CHARS.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
