/**
 * The figures `GET /metrics` exposes, as Prometheus metric families: ingest outcomes (this
 * instance since start), delivery outcomes and retries by platform, the latency histogram
 * (store-wide, from the KV counters every instance adds to), and the waiting work.
 */
import type { Kv } from "../store/backend/types.ts";
import { readDeliveryTotals, readLatencyTotals } from "../store/telemetry/delivery_totals.ts";
import { LATENCY_BUCKETS_MS } from "../store/telemetry/latency.ts";
import { readQueueFigures } from "../store/telemetry/queue_figures.ts";
import { readHealthCounts } from "../store/delivery/target_health.ts";
import { rejectionCounts } from "../ingest/rejection_sampler.ts";
import { ingestCounts } from "./ingest_counters.ts";
import { type MetricFamily, type Sample, writePrometheusText } from "./prometheus.ts";

const STATUSES = ["ok", "failed", "retrying", "dead"] as const;

function rejectionSamples(kv: Kv): Sample[] {
  const counts = rejectionCounts(kv);
  return (["stored", "dropped"] as const).flatMap((kept) =>
    [...counts[kept]].sort(([a], [b]) => a.localeCompare(b)).map(([reason, value]) => ({
      labels: [["reason", reason], ["kept", kept === "stored" ? "true" : "false"]],
      value,
    }))
  );
}

function ingestFamilies(kv: Kv): MetricFamily[] {
  const counts = ingestCounts(kv);
  const events: Sample[] = [];
  for (const [provider, byOutcome] of counts.events) {
    for (const outcome of ["accepted", "duplicate"] as const) {
      events.push({
        labels: [["provider", provider], ["outcome", outcome]],
        value: byOutcome[outcome],
      });
    }
  }
  return [
    {
      name: "switchyard_ingest_events_total",
      help: "Webhook events stored for delivery (accepted) or acknowledged again (duplicate), " +
        "by this instance since it started.",
      type: "counter",
      samples: events,
    },
    {
      name: "switchyard_ingest_refused_total",
      help: "Webhook requests refused, by answer status, by this instance since it started.",
      type: "counter",
      samples: [...counts.refused].sort(([a], [b]) => a - b)
        .map(([status, value]) => ({ labels: [["status", String(status)]], value })),
    },
    {
      name: "switchyard_ingest_rejections_total",
      help: "Webhook requests refused, by reason and whether the console's rejected list " +
        "kept them (sampled), by this instance since it started.",
      type: "counter",
      samples: rejectionSamples(kv),
    },
    {
      name: "switchyard_ingest_failed_total",
      help: "Webhook requests the store could not take (answered 5xx), by this instance.",
      type: "counter",
      samples: [{ value: counts.failed }],
    },
  ];
}

async function deliveryFamilies(kv: Kv): Promise<MetricFamily[]> {
  const totals = await readDeliveryTotals(kv);
  const outcomes: Sample[] = [];
  const retries: Sample[] = [];
  for (const platform of [...totals.keys()].sort()) {
    const byStatus = totals.get(platform)!;
    for (const status of STATUSES) {
      outcomes.push({
        labels: [["platform", platform], ["status", status]],
        value: byStatus.get(status) ?? 0,
      });
    }
    retries.push({ labels: [["platform", platform]], value: byStatus.get("retrying") ?? 0 });
  }
  return [
    {
      name: "switchyard_deliveries_total",
      help: "Delivery unit outcomes by platform and status (retrying counts each attempt " +
        "scheduled again), store-wide over the kept days.",
      type: "counter",
      samples: outcomes,
    },
    {
      name: "switchyard_delivery_retries_total",
      help: "Delivery attempts that failed or were rate limited and were scheduled again.",
      type: "counter",
      samples: retries,
    },
  ];
}

async function latencyFamily(kv: Kv): Promise<MetricFamily> {
  const totals = await readLatencyTotals(kv);
  const samples: Sample[] = [];
  let cumulative = 0;
  for (const bound of [...LATENCY_BUCKETS_MS, Infinity]) {
    cumulative += totals.get(bound) ?? 0;
    const le = bound === Infinity ? "+Inf" : String(bound / 1000);
    samples.push({ suffix: "_bucket", labels: [["le", le]], value: cumulative });
  }
  samples.push({ suffix: "_count", value: cumulative });
  return {
    name: "switchyard_delivery_latency_seconds",
    help: "Time from an event's acceptance to the platform's answer, of units that succeeded " +
      "(bucket counts only: the store keeps no sum).",
    type: "histogram",
    samples,
  };
}

async function queueFamilies(kv: Kv, now: number): Promise<MetricFamily[]> {
  const queue = await readQueueFigures(kv, now);
  const age = queue.oldestPendingAt === undefined
    ? 0
    : Math.max(0, (now - queue.oldestPendingAt) / 1000);
  return [
    {
      name: "switchyard_queue_depth",
      help: "Work waiting: units not yet final, events whose fan-out is pending, parked " +
        "deliver jobs and dead jobs (each counted up to 10000).",
      type: "gauge",
      samples: [
        { labels: [["stage", "delivery"]], value: queue.units },
        { labels: [["stage", "fan_out"]], value: queue.pendingFanOuts },
        { labels: [["stage", "parked"]], value: queue.parkedJobs },
      ],
    },
    {
      name: "switchyard_queue_oldest_pending_age_seconds",
      help: "Age of the oldest waiting event (0 when nothing waits).",
      type: "gauge",
      samples: [{ value: age }],
    },
  ];
}

async function targetHealthFamily(kv: Kv): Promise<MetricFamily> {
  const counts = await readHealthCounts(kv);
  const samples: Sample[] = [];
  for (const platform of [...counts.keys()].sort()) {
    for (const change of ["paused", "resumed", "discarded"]) {
      samples.push({
        labels: [["platform", platform], ["change", change]],
        value: counts.get(platform)!.get(change) ?? 0,
      });
    }
  }
  return {
    name: "switchyard_target_health_total",
    help: "Targets paused (a permanent refusal or failures in a row), resumed, and held " +
      "messages discarded, by platform, store-wide.",
    type: "counter",
    samples,
  };
}

/** The metrics page in the Prometheus text format. */
export async function renderMetrics(kv: Kv, now = Date.now()): Promise<string> {
  const [delivery, latency, queue, health] = await Promise.all([
    deliveryFamilies(kv),
    latencyFamily(kv),
    queueFamilies(kv, now),
    targetHealthFamily(kv),
  ]);
  return writePrometheusText([...ingestFamilies(kv), ...delivery, latency, ...queue, health]);
}
