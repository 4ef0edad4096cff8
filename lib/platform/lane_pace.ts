/**
 * A lane's rate-limit state as it passes from one owner to the next. A lane
 * (one Discord channel or thread, one Telegram chat) is worked by one
 * instance at a time; when it goes idle or is handed off, its limiter state is
 * stored with the lane so the next owner, on any instance, keeps the limit.
 */

/** What the next owner of a lane must respect. */
export interface LanePace {
  /** The earliest time the next message may go (Unix ms). */
  notBefore: number;
  /** Discord: the channel's bucket as last advertised. */
  bucket?: { limit: number; remaining: number; resetAt: number };
}

/** True when a stored value is a {@link LanePace}. */
export function isLanePace(value: unknown): value is LanePace {
  const pace = value as Partial<LanePace> | null;
  if (typeof pace !== "object" || pace === null || !Number.isFinite(pace.notBefore)) return false;
  const bucket = pace.bucket;
  return bucket === undefined ||
    (typeof bucket === "object" && bucket !== null && Number.isFinite(bucket.limit) &&
      Number.isFinite(bucket.remaining) && Number.isFinite(bucket.resetAt));
}

/** The last moment a pace matters (after it, the lane is free), for how long to keep it. */
export function paceEnd(pace: LanePace): number {
  return Math.max(pace.notBefore, pace.bucket?.resetAt ?? 0);
}
