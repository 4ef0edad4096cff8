/**
 * Ingest counters: events stored for delivery, duplicates acknowledged, and requests refused
 * (by status), counted in memory by each instance since it started. Refusals come from anyone
 * on the internet, so counting them must not write to the store; the other two follow the same
 * rule so the three figures add up. Prometheus sums them over instances. Counters are kept per
 * store handle, so two apps in one process (tests) count apart.
 */
import type { Kv } from "../store/backend/types.ts";
import type { IngestResult } from "../ingest/handle.ts";
import type { Provider } from "../types.ts";

/** The counts of one instance. */
interface IngestCounts {
  /** By provider, then outcome (`accepted`, `duplicate`). */
  events: Map<Provider, { accepted: number; duplicate: number }>;
  /** Refused requests by answer status (4xx). */
  refused: Map<number, number>;
  /** Requests the store could not take (5xx). */
  failed: number;
}

const countsByStore = new WeakMap<Kv, IngestCounts>();

/** The counts kept for a store handle (created empty on first use). */
export function ingestCounts(kv: Kv): IngestCounts {
  let counts = countsByStore.get(kv);
  if (!counts) {
    counts = { events: new Map(), refused: new Map(), failed: 0 };
    countsByStore.set(kv, counts);
  }
  return counts;
}

/** Counts one outcome. */
export function countIngest(kv: Kv, result: IngestResult): void {
  const counts = ingestCounts(kv);
  if ("status" in result) {
    if (result.outcome === "failed") counts.failed++;
    else counts.refused.set(result.status, (counts.refused.get(result.status) ?? 0) + 1);
  } else {
    let byOutcome = counts.events.get(result.provider);
    if (!byOutcome) counts.events.set(result.provider, byOutcome = { accepted: 0, duplicate: 0 });
    byOutcome[result.outcome]++;
  }
}
