/**
 * The retry policy: network errors, timeouts and 5xx back off along a
 * schedule (5 s, 30 s, 2 min, 10 min, 30 min) and the unit is `dead` when the
 * schedule is spent; a 429 waits the platform's `retry_after` (at most an hour,
 * lib/platform/platform_delay.ts) without using a retry; any other refusal is
 * final (`failed`).
 */
import type { SendStatus } from "../store/send_logs.ts";
import type { SendResult } from "../platform/send_result.ts";

/** The waits before each retry, in milliseconds. */
export const DEFAULT_BACKOFF_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 1_800_000];

/** What to do with a unit after an attempt. */
export interface RetryDecision {
  status: SendStatus;
  /** Retryable failures so far, this one included. */
  failures: number;
  /** When `retrying`: how long the lane waits before trying again. */
  delayMs?: number;
}

/** The decision for `result`, after `failures` earlier retryable failures. */
export function decide(
  result: SendResult,
  failures: number,
  backoffMs: readonly number[],
): RetryDecision {
  switch (result.kind) {
    case "sent":
      return { status: "ok", failures };
    case "rejected":
      return { status: "failed", failures };
    case "rate_limited":
      return { status: "retrying", failures, delayMs: result.retryAfterMs };
    case "retryable":
      return failures < backoffMs.length
        ? { status: "retrying", failures: failures + 1, delayMs: backoffMs[failures] }
        : { status: "dead", failures: failures + 1 };
  }
}
