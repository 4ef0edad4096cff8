/**
 * Store-wide delivery totals for `/metrics`: the day counters of `metrics.ts` and the latency
 * histograms of `latency.ts`, summed over every day still kept (counters older than the
 * send-log retention plus a week are pruned, which a scraper sees as a counter reset). Every
 * outcome counts as it happened: the withdrawals the overview subtracts for redelivered units
 * are left out, so these totals only grow. Platform
 * and status come from stored keys; the maps are Maps, so no value reaches an inherited member.
 */
import type { Kv, KvU64 } from "../backend/types.ts";
import { deliveryCountersPrefix, deliveryLatencyPrefix } from "../keys.ts";
import { LATENCY_BUCKETS_MS } from "./latency.ts";
import { isWithdrawal } from "./metrics.ts";

/** Outcomes by platform, then by status (`ok`, `failed`, `retrying`, `dead`). */
type DeliveryTotals = Map<string, Map<string, number>>;

/** Successful units by latency bucket (upper bound in ms; the open bucket is `Infinity`). */
type LatencyTotals = Map<number, number>;

/** Sums the store-wide delivery counters of every kept day by platform and status. */
export async function readDeliveryTotals(kv: Kv): Promise<DeliveryTotals> {
  const totals: DeliveryTotals = new Map();
  const entries = kv.list<KvU64>({ prefix: deliveryCountersPrefix({ type: "global" }) });
  for await (const entry of entries) {
    const [, , , platform, , status] = entry.key as string[];
    if (isWithdrawal(status)) continue;
    let byStatus = totals.get(platform);
    if (!byStatus) totals.set(platform, byStatus = new Map());
    byStatus.set(status, (byStatus.get(status) ?? 0) + Number(entry.value.value));
  }
  return totals;
}

/** Sums the store-wide latency histograms of every kept day by bucket. */
export async function readLatencyTotals(kv: Kv): Promise<LatencyTotals> {
  const known = new Set(LATENCY_BUCKETS_MS);
  const totals: LatencyTotals = new Map();
  for await (const entry of kv.list<KvU64>({ prefix: deliveryLatencyPrefix("all") })) {
    const bound = entry.key[3] as number;
    const bucket = known.has(bound) ? bound : Infinity;
    totals.set(bucket, (totals.get(bucket) ?? 0) + Number(entry.value.value));
  }
  return totals;
}
