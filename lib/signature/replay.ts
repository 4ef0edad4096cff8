/** Timestamp parsing and the replay window shared by the timestamped schemes. */

/** Largest accepted distance, in seconds, between a signed timestamp and now (both ways). */
export const REPLAY_WINDOW_SECONDS = 300;

const UNIX_SECONDS = /^\d{1,12}$/;

/** Unix seconds from a header value of plain digits, or null when malformed. */
export function parseUnixSeconds(value: string | null): number | null {
  const text = value?.trim() ?? "";
  return UNIX_SECONDS.test(text) ? Number(text) : null;
}

/**
 * True when `timestampSeconds` lies within ±{@link REPLAY_WINDOW_SECONDS} of
 * `nowMs` (edges included).
 */
export function isWithinReplayWindow(timestampSeconds: number, nowMs: number): boolean {
  return Math.abs(nowMs / 1000 - timestampSeconds) <= REPLAY_WINDOW_SECONDS;
}
