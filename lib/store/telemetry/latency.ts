/**
 * Delivery latency: the time from the event's acceptance to the platform's answer of a unit
 * that succeeded, kept as a histogram per scope (`all` and the unit's group, by internal id)
 * and UTC day: one KV sum per bucket, added in the atomic operation that records the unit's
 * outcome, so a success costs two more small writes and the metrics read a few dozen
 * counters per day. Percentiles are estimated from the buckets (linear within a bucket), which
 * is accurate to a bucket's width (about a quarter to a half of its bounds).
 */
import type { AtomicOperation, Kv, KvU64 } from "../backend/types.ts";
import { decodeUlidTime } from "../../ulid.ts";
import { deliveryLatencyKey, deliveryLatencyPrefix, deliveryLatencyRoot } from "../keys.ts";

/** Upper bounds of the buckets, in milliseconds; later times fall in the last, open bucket. */
export const LATENCY_BUCKETS_MS: readonly number[] = [
  50,
  100,
  150,
  200,
  300,
  400,
  500,
  750,
  1_000,
  1_500,
  2_000,
  3_000,
  5_000,
  7_500,
  10_000,
  15_000,
  20_000,
  30_000,
  45_000,
  60_000,
  90_000,
  120_000,
  180_000,
  300_000,
  600_000,
  900_000,
  1_800_000,
  3_600_000,
];

/** The bound of the open bucket: latencies over the last bound (an hour). */
const OPEN_BUCKET_MS = Number.MAX_SAFE_INTEGER;

/** The bucket (its upper bound) a latency falls in. */
export function latencyBucket(latencyMs: number): number {
  return LATENCY_BUCKETS_MS.find((bound) => latencyMs <= bound) ?? OPEN_BUCKET_MS;
}

/** When the event of a unit was accepted: the time in its event id (a ulid). */
export function acceptedAt(eventId: string, fallback: number): number {
  try {
    return decodeUlidTime(eventId);
  } catch {
    return fallback;
  }
}

/** Adds one latency to the histograms of `scopes` for the day `day`. */
export function countLatency(
  op: AtomicOperation,
  scopes: readonly string[],
  day: string,
  latencyMs: number,
): AtomicOperation {
  const bucket = latencyBucket(Math.max(0, latencyMs));
  for (const scope of scopes) op.sum(deliveryLatencyKey(scope, day, bucket), 1n);
  return op;
}

/** Latency percentiles of a set of units; the percentiles are absent when there is none. */
export interface LatencySummary {
  /** Units that succeeded. */
  count: number;
  /** Median latency, in milliseconds (at least an hour: the open bucket's lower bound). */
  p50Ms?: number;
  /** 95th percentile latency, in milliseconds. */
  p95Ms?: number;
}

/** One day's latency. */
export interface DayLatency extends LatencySummary {
  day: string;
}

/** A histogram: count by bucket upper bound. */
type Histogram = Map<number, number>;

function percentile(histogram: Histogram, total: number, quantile: number): number {
  const rank = Math.max(1, Math.ceil(quantile * total));
  let seen = 0;
  let lower = 0;
  for (const bound of [...LATENCY_BUCKETS_MS, OPEN_BUCKET_MS]) {
    const count = histogram.get(bound) ?? 0;
    if (count > 0 && seen + count >= rank) {
      if (bound === OPEN_BUCKET_MS) return lower;
      return Math.round(lower + (bound - lower) * (rank - seen) / count);
    }
    seen += count;
    lower = bound;
  }
  return lower;
}

/** The percentiles of a histogram. */
export function summarizeLatency(histogram: Histogram): LatencySummary {
  let count = 0;
  for (const value of histogram.values()) count += value;
  if (count === 0) return { count };
  return {
    count,
    p50Ms: percentile(histogram, count, 0.5),
    p95Ms: percentile(histogram, count, 0.95),
  };
}

function addTo(histogram: Histogram, bucket: number, value: number) {
  histogram.set(bucket, (histogram.get(bucket) ?? 0) + value);
}

/**
 * The latency over the days `from`..`to` (`YYYY-MM-DD`, inclusive) summed over `scopes`:
 * the whole period and each day that had a success.
 */
export async function readLatency(
  kv: Kv,
  scopes: readonly string[],
  from: string,
  to: string,
): Promise<{ overall: LatencySummary; byDay: DayLatency[] }> {
  const overall: Histogram = new Map();
  const days = new Map<string, Histogram>();
  for (const scope of scopes) {
    const prefix = deliveryLatencyPrefix(scope);
    const entries = kv.list<KvU64>({ start: [...prefix, from], end: [...prefix, `${to}~`] });
    for await (const entry of entries) {
      const [, , day, bucket] = entry.key as [string, string, string, number];
      const value = Number(entry.value.value);
      addTo(overall, bucket, value);
      let histogram = days.get(day);
      if (!histogram) days.set(day, histogram = new Map());
      addTo(histogram, bucket, value);
    }
  }
  return {
    overall: summarizeLatency(overall),
    byDay: [...days.entries()].sort(([a], [b]) => a.localeCompare(b))
      .map(([day, histogram]) => ({ day, ...summarizeLatency(histogram) })),
  };
}

/** Deletes the latency counters of days before `oldest` (`YYYY-MM-DD`); returns how many. */
export async function pruneLatency(kv: Kv, oldest: string): Promise<number> {
  let pruned = 0;
  for await (const counter of kv.list({ prefix: deliveryLatencyRoot() })) {
    if ((counter.key[2] as string) < oldest) {
      await kv.delete(counter.key);
      pruned++;
    }
  }
  return pruned;
}
