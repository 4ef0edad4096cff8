/** Times as the group pages show them: the same text on the server and in the browser. */

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** `2025-01-02 14:03 UTC`. */
export function formatTime(at: number): string {
  return new Date(at).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** How long until `at`, roughly: `in 6 days`, `in 5 hours`, `in under an hour`, `expired`. */
export function timeUntil(at: number, now: number = Date.now()): string {
  const left = at - now;
  if (left <= 0) return "expired";
  // Rounded, not cut: an invite made a moment ago for 7 days expires "in 7 days".
  if (left >= 2 * DAY_MS - HOUR_MS / 2) return `in ${Math.round(left / DAY_MS)} days`;
  if (left >= 2 * HOUR_MS) return `in ${Math.round(left / HOUR_MS)} hours`;
  return left >= HOUR_MS ? "in about an hour" : "in under an hour";
}
