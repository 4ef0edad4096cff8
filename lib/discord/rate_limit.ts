/**
 * Discord rate limits, tracked in process: each channel's bucket from the
 * `X-RateLimit-*` headers of its last answer (or a 429's `retry_after`), and
 * the bot's global limit of 50 requests per second, spread evenly. A request
 * is reserved only when its wait is acceptable to the caller, so a lane that
 * would wait long hands off without holding capacity.
 */
import { EvenPace, type Reservation } from "../platform/even_pace.ts";
import type { LanePace } from "../platform/lane_pace.ts";
import { headerDelayMs } from "../platform/platform_delay.ts";

/** What one answer said about its bucket. */
export interface DiscordRateLimitInfo {
  bucket?: string;
  limit?: number;
  remaining?: number;
  /** Time until the bucket resets, in milliseconds. */
  resetAfterMs?: number;
}

/** The bot-wide limit. */
interface DiscordGlobalLimit {
  max: number;
  windowMs: number;
}

/** Discord's global limit: 50 requests per second per bot. */
const DISCORD_GLOBAL_LIMIT: DiscordGlobalLimit = { max: 50, windowMs: 1000 };

interface BucketState {
  limit: number;
  remaining: number;
  resetAt: number;
}

const COUNT = /^\d{1,9}$/;

function countHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim() ?? "";
  return COUNT.test(value) ? Number(value) : undefined;
}

/**
 * Reads the `X-RateLimit-*` headers; undefined when the answer carried none.
 * Counts must be whole non-negative numbers and the reset wait is clamped
 * (lib/platform/platform_delay.ts); a malformed header counts as absent.
 */
export function parseDiscordRateLimit(headers: Headers): DiscordRateLimitInfo | undefined {
  const limit = countHeader(headers, "x-ratelimit-limit");
  const remaining = countHeader(headers, "x-ratelimit-remaining");
  const resetAfterMs = headerDelayMs(headers.get("x-ratelimit-reset-after")) ?? undefined;
  const bucket = headers.get("x-ratelimit-bucket") ?? undefined;
  if (limit === undefined && remaining === undefined && resetAfterMs === undefined) {
    return undefined;
  }
  return { bucket, limit, remaining, resetAfterMs };
}

/** What the limiter learns from an answer. */
export type DiscordObservation =
  | { kind: "answer"; rateLimit?: DiscordRateLimitInfo }
  | {
    kind: "rate_limited";
    retryAfterMs: number;
    global: boolean;
    rateLimit?: DiscordRateLimitInfo;
  };

/** Channel buckets and the global limit of one bot, in one process. */
export class DiscordRateLimiter {
  readonly #buckets = new Map<string, BucketState>();
  readonly #global: EvenPace;
  readonly #now: () => number;
  #globalBlockedUntil = 0;

  /** A limiter with the given global limit and clock. */
  constructor(options: { global?: DiscordGlobalLimit; now?: () => number } = {}) {
    const global = options.global ?? DISCORD_GLOBAL_LIMIT;
    this.#global = new EvenPace(global.max, global.windowMs);
    this.#now = options.now ?? Date.now;
  }

  /**
   * Reserves the next request to `channelId` if it may go within `maxWaitMs`;
   * either way answers how long until it may go.
   */
  reserve(channelId: string, maxWaitMs: number): Reservation {
    const now = this.#now();
    const bucket = this.#buckets.get(channelId);
    let start = Math.max(now, this.#globalBlockedUntil);
    if (bucket && bucket.remaining <= 0 && bucket.resetAt > now) {
      start = Math.max(start, bucket.resetAt);
    }
    const at = this.#global.earliest(start);
    const waitMs = Math.max(0, at - now);
    if (waitMs > maxWaitMs) return { granted: false, waitMs };
    this.#global.take(start, now);
    if (bucket) {
      bucket.remaining = bucket.resetAt <= at ? bucket.limit - 1 : bucket.remaining - 1;
    }
    return { granted: true, waitMs };
  }

  /** Keeps an even share of the global limit when `instances` instances send for the bot. */
  shareGlobal(instances: number): void {
    this.#global.share(instances);
  }

  /** The channel's bucket, for the lane's next owner (null when nothing is known). */
  paceOf(channelId: string): LanePace | null {
    const bucket = this.#buckets.get(channelId);
    if (!bucket) return null;
    const notBefore = bucket.remaining <= 0 ? bucket.resetAt : 0;
    return { notBefore, bucket: { ...bucket } };
  }

  /** Takes on the bucket a previous owner of the lane left, unless this one knows a later one. */
  adopt(channelId: string, pace: LanePace): void {
    const known = this.#buckets.get(channelId);
    const left = pace.bucket;
    if (!left || (known && known.resetAt >= left.resetAt)) return;
    this.#buckets.set(channelId, { ...left });
  }

  /** Updates the channel's bucket (or the global block) from an answer. */
  observe(channelId: string, observation: DiscordObservation): void {
    const now = this.#now();
    const info = observation.rateLimit;
    if (
      info?.limit !== undefined && info.remaining !== undefined && info.resetAfterMs !== undefined
    ) {
      this.#buckets.set(channelId, {
        limit: info.limit,
        remaining: info.remaining,
        resetAt: now + info.resetAfterMs,
      });
    }
    if (observation.kind !== "rate_limited") return;
    if (observation.global) {
      this.#globalBlockedUntil = Math.max(this.#globalBlockedUntil, now + observation.retryAfterMs);
      return;
    }
    const bucket = this.#buckets.get(channelId) ?? { limit: 1, remaining: 0, resetAt: now };
    bucket.remaining = 0;
    bucket.resetAt = Math.max(bucket.resetAt, now + observation.retryAfterMs);
    this.#buckets.set(channelId, bucket);
  }
}
