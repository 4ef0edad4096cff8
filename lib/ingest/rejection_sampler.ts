/**
 * The sampling in front of the rejected-requests store: per bucket (a known group, or the one
 * global bucket for the instance-wide ingress and unknown groups) at most
 * {@link REJECTIONS_PER_MINUTE} records a minute are written, by each instance; the rest are
 * only counted. Buckets exist only for groups that exist, so their number is bounded by the
 * groups; {@link MAX_BUCKETS} bounds it anyway. Every rejection is counted by reason, stored or
 * not, for `/metrics`. Kept per store handle, like the ingest counters.
 */
import type { Kv } from "../store/backend/types.ts";

/** Records written per bucket and minute, by one instance. */
export const REJECTIONS_PER_MINUTE = 10;

/** Buckets kept in memory; past it, buckets of past minutes are dropped first. */
const MAX_BUCKETS = 10_000;

const MINUTE_MS = 60_000;

/** Rejections counted by reason: written to the store, or only counted. */
interface RejectionCounts {
  stored: Map<string, number>;
  dropped: Map<string, number>;
}

interface Sampler {
  buckets: Map<string, { minute: number; written: number }>;
  counts: RejectionCounts;
}

const samplers = new WeakMap<Kv, Sampler>();

function samplerOf(kv: Kv): Sampler {
  let sampler = samplers.get(kv);
  if (!sampler) {
    sampler = { buckets: new Map(), counts: { stored: new Map(), dropped: new Map() } };
    samplers.set(kv, sampler);
  }
  return sampler;
}

/** The rejections counted for a store handle since the instance started. */
export function rejectionCounts(kv: Kv): RejectionCounts {
  return samplerOf(kv).counts;
}

function dropPastBuckets(sampler: Sampler, minute: number): void {
  for (const [name, bucket] of sampler.buckets) {
    if (bucket.minute !== minute) sampler.buckets.delete(name);
  }
}

/**
 * Whether a rejection for `bucket` at `now` may be written, and counts it by `reason` either
 * way. Refuses once the bucket wrote its share this minute, or when the map is full.
 */
export function admitRejection(kv: Kv, bucket: string, reason: string, now: number): boolean {
  const sampler = samplerOf(kv);
  const minute = Math.floor(now / MINUTE_MS);
  let entry = sampler.buckets.get(bucket);
  if (!entry && sampler.buckets.size >= MAX_BUCKETS) dropPastBuckets(sampler, minute);
  if (entry && entry.minute !== minute) entry = undefined;
  const admitted = (entry?.written ?? 0) < REJECTIONS_PER_MINUTE &&
    (entry !== undefined || sampler.buckets.size < MAX_BUCKETS);
  if (admitted) sampler.buckets.set(bucket, { minute, written: (entry?.written ?? 0) + 1 });
  const counts = admitted ? sampler.counts.stored : sampler.counts.dropped;
  counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return admitted;
}
