/**
 * The retry policy: network errors, timeouts and 5xx back off along a
 * schedule (5 s, 30 s, 2 min, 10 min, 30 min) and the unit is `dead` when the
 * schedule is spent; a 429 waits the platform's `retry_after` (at most an hour,
 * lib/platform/platform_delay.ts) without using a retry, but a unit answered
 * only 429s for too long or too many times in a row ends `dead` (a platform
 * that keeps refusing, e.g. with `retry_after: 0`, must not hold a lane
 * forever); any other refusal is final (`failed`).
 */
import type { SendStatus } from "../store/delivery/send_logs.ts";
import type { SendResult } from "../platform/send_result.ts";

/** The waits before each retry, in milliseconds. */
export const DEFAULT_BACKOFF_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 1_800_000];

/** How long and how many times in a row a unit may be answered 429 before it is `dead`. */
export interface RateLimitBound {
  maxMs: number;
  maxInARow: number;
}

/** Two hours (two of the longest waits a platform may impose), or 50 429s in a row. */
export const DEFAULT_RATE_LIMIT_BOUND: RateLimitBound = {
  maxMs: 2 * 60 * 60 * 1000,
  maxInARow: 50,
};

/** The unit's retry state, as its lane entry keeps it. */
export interface RetryState {
  failures: number;
  rateLimits?: number;
  rateLimitedSince?: number;
}

/** What to do with a unit after an attempt. */
export interface RetryDecision {
  status: SendStatus;
  /** Retryable failures so far, this one included. */
  failures: number;
  /** 429s in a row, this one included (absent after any other answer). */
  rateLimits?: number;
  /** When the first 429 of that run came. */
  rateLimitedSince?: number;
  /** When `retrying`: how long the lane waits before trying again. */
  delayMs?: number;
  /** Why a unit that was never refused ends `dead` (its 429s ran past the bound). */
  reason?: string;
}

/** The decision for `result` at `now`, given the unit's retry state so far. */
export function decide(
  result: SendResult,
  state: RetryState,
  backoffMs: readonly number[],
  now: number,
  bound: RateLimitBound = DEFAULT_RATE_LIMIT_BOUND,
): RetryDecision {
  const failures = state.failures;
  switch (result.kind) {
    case "sent":
      return { status: "ok", failures };
    case "rejected":
      return { status: "failed", failures };
    case "rate_limited":
      return rateLimited(result.retryAfterMs, state, now, bound);
    case "retryable":
      return failures < backoffMs.length
        ? { status: "retrying", failures: failures + 1, delayMs: backoffMs[failures] }
        : { status: "dead", failures: failures + 1 };
  }
}

function rateLimited(
  retryAfterMs: number,
  state: RetryState,
  now: number,
  bound: RateLimitBound,
): RetryDecision {
  const rateLimits = (state.rateLimits ?? 0) + 1;
  const since = state.rateLimitedSince ?? now;
  const spentMs = now - since;
  if (rateLimits >= bound.maxInARow || spentMs >= bound.maxMs) {
    return {
      status: "dead",
      failures: state.failures,
      reason: `rate limited (429) ${rateLimits} times in a row over ${
        Math.round(spentMs / 1000)
      } s without being accepted`,
    };
  }
  return {
    status: "retrying",
    failures: state.failures,
    rateLimits,
    rateLimitedSince: since,
    delayMs: retryAfterMs,
  };
}
