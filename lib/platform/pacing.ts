/**
 * Waiting for a reserved platform call: a call whose reservation is granted sleeps until its
 * turn; one that would wait longer than the caller sleeps in process is not made, and a
 * `rate_limited` answer stands for it, so the retry policy brings the work back later.
 */
import type { Reservation } from "./even_pace.ts";
import type { SendResult } from "./send_result.ts";

/** What pacing needs from the caller: the longest wait slept in process, and the sleep. */
export interface Pacing {
  maxSleepMs: number;
  sleep(ms: number): Promise<void>;
}

/** Pacing for a call a web request makes: it sleeps in the request, up to `maxSleepMs`. */
export function requestPacing(maxSleepMs: number): Pacing {
  return {
    maxSleepMs,
    sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  };
}

/**
 * Takes a reservation from `reserve` (given the longest acceptable wait) and sleeps until it is
 * due: null when the call may go now, else the `rate_limited` answer that stands for it.
 */
export async function waitForTurn(
  pacing: Pacing,
  reserve: (maxWaitMs: number) => Reservation,
): Promise<SendResult | null> {
  const reservation = reserve(pacing.maxSleepMs);
  if (!reservation.granted) {
    return {
      kind: "rate_limited",
      httpStatus: 429,
      retryAfterMs: reservation.waitMs,
      global: false,
      error: "waiting for the rate limit to make the next call",
    };
  }
  if (reservation.waitMs > 0) await pacing.sleep(reservation.waitMs);
  return null;
}
