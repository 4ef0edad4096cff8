/**
 * Delivery counters: one KV sum per scope × UTC day × platform × event kind ×
 * status, added in the same atomic operation that records a unit's outcome,
 * so a metrics query reads a few counters instead of scanning send logs. The
 * scope is `all` plus the unit's group, by the group's internal id (so counts
 * follow the group through renames). KV sums cannot carry an expiry, so
 * `pruneCounters` deletes the days older than the send-log retention plus a week. A unit that
 * succeeds also adds its latency (accepted → platform answered) to the day's histogram
 * (`latency.ts`).
 * The overview counts each unit once, by its final state: when redelivery puts a `failed` or
 * `dead` unit back in its lane, `withdrawOutcome` adds a `withdrawn:<status>` counter on the day
 * that outcome was counted, and `readMetrics` subtracts it. The outcome counters themselves only
 * grow, so `/metrics` (`delivery_totals.ts`) keeps counting every outcome as it happened.
 * Event kinds and platforms come from senders; the maps keyed by them have no
 * prototype, so no kind (`__proto__`, `constructor`) reaches an inherited member.
 */
import type { AtomicOperation, Kv, KvU64 } from "../backend/types.ts";
import { internalIdsOf, readGroupSet } from "../config/group_set.ts";
import { deliveryCounterKey, deliveryCountersBetween, deliveryCountersRoot } from "../keys.ts";
import {
  acceptedAt,
  countLatency,
  type DayLatency,
  type LatencySummary,
  pruneLatency,
  readLatency,
} from "./latency.ts";
import { historyIdOf, listSendLogs, type SendLog, type SendStatus } from "../delivery/send_logs.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const COUNTER_GRACE_MS = 7 * DAY_MS;
const RECENT_FAILURES = 20;

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** Whose counters: everything, or one group's history (by the group's internal id). */
export type CounterScope = { type: "global" } | { type: "group"; internalId: string };

/** The counter scope of a group's history, or of everything when `internalId` is undefined. */
function counterScope(internalId: string | undefined): CounterScope {
  return internalId === undefined ? { type: "global" } : { type: "group", internalId };
}

/** The latency histograms' names of counter scopes (`all`, `group:<internal id>`). */
function latencyScopeNames(scopes: readonly CounterScope[]): string[] {
  return scopes.map((scope) => scope.type === "global" ? "all" : `group:${scope.internalId}`);
}

/** Final statuses a redelivery can reopen. */
type ReopenedStatus = "failed" | "dead";

/** The counter that takes back a final outcome a redelivery reopened. */
type WithdrawnStatus = `withdrawn:${ReopenedStatus}`;

/** What a delivery counter counts: outcomes with this status, or withdrawals of one. */
export type CounterStatus = SendStatus | WithdrawnStatus;

/** Whether a counter's status segment is a withdrawal. */
export function isWithdrawal(status: string): status is WithdrawnStatus {
  return status === "withdrawn:failed" || status === "withdrawn:dead";
}

/**
 * Adds one outcome of `log` (its current status) to the counters of its day, and when it is
 * `ok`, its latency since the event was accepted.
 */
export function countOutcome(
  op: AtomicOperation,
  log: SendLog,
  at: number,
): AtomicOperation {
  const day = utcDay(at);
  const scopes = [counterScope(undefined), counterScope(historyIdOf(log))];
  for (const scope of scopes) {
    op.sum(deliveryCounterKey(scope, day, log.platform, log.event, log.status), 1n);
  }
  if (log.status === "ok") {
    countLatency(op, latencyScopeNames(scopes), day, at - acceptedAt(log.eventId, log.createdAt));
  }
  return op;
}

/**
 * Takes back the final outcome of `log`, a `failed` or `dead` unit that redelivery puts back
 * in its lane: a withdrawal counter on the day its outcome was counted (`updatedAt`, the time
 * of its last attempt), so the unit counts again only by the outcome of its next attempts.
 */
export function withdrawOutcome(op: AtomicOperation, log: SendLog): AtomicOperation {
  if (log.status !== "failed" && log.status !== "dead") return op;
  const day = utcDay(log.updatedAt);
  const withdrawn: WithdrawnStatus = `withdrawn:${log.status}`;
  for (const scope of [counterScope(undefined), counterScope(historyIdOf(log))]) {
    op.sum(deliveryCounterKey(scope, day, log.platform, log.event, withdrawn), 1n);
  }
  return op;
}

/** Counts of outcomes. */
export interface OutcomeCounts {
  total: number;
  ok: number;
  failed: number;
  dead: number;
  /** Attempts that failed and were scheduled again (429s and retryable errors). */
  retrying: number;
}

/** One day's counts. */
export interface DayCounts extends OutcomeCounts {
  day: string;
}

/** What the metrics page shows. */
export interface DeliveryMetrics {
  /** First and last day covered (UTC, inclusive). */
  from: string;
  to: string;
  totals: OutcomeCounts;
  /** (failed + dead) / (ok + failed + dead), 0 when nothing was final. */
  failureRate: number;
  /** Counts by platform (an object without prototype). */
  byPlatform: Record<string, OutcomeCounts>;
  /** Counts by event kind (an object without prototype). */
  byEvent: Record<string, OutcomeCounts>;
  byStatus: Record<SendStatus, number>;
  byDay: DayCounts[];
  /** The newest failed or dead units of the scope whose last attempt was in the period. */
  recentFailures: SendLog[];
  /** Latency of the units that succeeded (accepted → platform answered), whole period. */
  latency: LatencySummary;
  /** The same per day (days with a success only), oldest first. */
  latencyByDay: DayLatency[];
}

function emptyCounts(): OutcomeCounts {
  return { total: 0, ok: 0, failed: 0, dead: 0, retrying: 0 };
}

function add(counts: OutcomeCounts, status: string, value: number) {
  if (isWithdrawal(status)) {
    const reopened = status === "withdrawn:failed" ? "failed" : "dead";
    counts[reopened] -= value;
    counts.total -= value;
    return;
  }
  if (status !== "ok" && status !== "failed" && status !== "dead" && status !== "retrying") return;
  counts[status] += value;
  if (status !== "retrying") counts.total += value;
}

/** The counts of `key` in a map without prototype, created when missing. */
function countsAt(map: Record<string, OutcomeCounts>, key: string): OutcomeCounts {
  if (!Object.hasOwn(map, key)) map[key] = emptyCounts();
  return map[key];
}

/** The newest failed or dead units whose last attempt was at or after `since`. */
async function recentFailures(
  kv: Kv,
  internalIds: readonly (string | undefined)[],
  since: number,
): Promise<SendLog[]> {
  const pages = await Promise.all(
    internalIds.flatMap((groupInternalId) =>
      (["failed", "dead"] as const).map((status) =>
        listSendLogs(kv, { groupInternalId, status, limit: RECENT_FAILURES })
      )
    ),
  );
  return pages.flatMap((page) => page.items)
    .filter((log) => log.updatedAt >= since)
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, RECENT_FAILURES);
}

/** Which groups {@link readMetrics} sums over. */
interface MetricsOptions {
  /** The groups that have these ids now (all of their history); everything when absent. */
  groupIds?: readonly string[];
  /** The groups with these internal ids (instead of `groupIds`). */
  groupInternalIds?: readonly string[];
  days?: number;
  now?: number;
}

async function internalIdsFor(kv: Kv, options: MetricsOptions) {
  if (options.groupIds === undefined) return options.groupInternalIds ?? [undefined];
  const internalIds = internalIdsOf(await readGroupSet(kv));
  return options.groupIds.flatMap((id) => internalIds.get(id) ?? []);
}

/**
 * Delivery metrics over the last `days` UTC days (default 7, today included),
 * summed over the given groups, or over everything when no group is given:
 * totals of final outcomes (each unit once, by its latest outcome), failure rate, and counts by platform, event kind,
 * status and day, plus the newest failures.
 */
export async function readMetrics(
  kv: Kv,
  options: MetricsOptions = {},
): Promise<DeliveryMetrics> {
  const days = Math.min(Math.max(Math.trunc(options.days ?? 7), 1), 366);
  const now = options.now ?? Date.now();
  const from = utcDay(now - (days - 1) * DAY_MS);
  const to = utcDay(now);
  const internalIds = await internalIdsFor(kv, options);
  const totals = emptyCounts();
  const byPlatform: Record<string, OutcomeCounts> = Object.create(null);
  const byEvent: Record<string, OutcomeCounts> = Object.create(null);
  const byDayMap = new Map<string, DayCounts>();
  for (const internalId of internalIds) {
    const entries = kv.list<KvU64>(
      deliveryCountersBetween(counterScope(internalId), from, to),
    );
    for await (const entry of entries) {
      const [, , day, platform, kind, status] = entry.key as string[];
      const value = Number(entry.value.value);
      add(totals, status, value);
      add(countsAt(byPlatform, platform), status, value);
      add(countsAt(byEvent, kind), status, value);
      let dayCounts = byDayMap.get(day);
      if (!dayCounts) byDayMap.set(day, dayCounts = { day, ...emptyCounts() });
      add(dayCounts, status, value);
    }
  }
  const final = totals.ok + totals.failed + totals.dead;
  const latency = await readLatency(kv, latencyScopeNames(internalIds.map(counterScope)), from, to);
  return {
    from,
    to,
    totals,
    failureRate: final === 0 ? 0 : (totals.failed + totals.dead) / final,
    byPlatform,
    byEvent,
    byStatus: {
      ok: totals.ok,
      failed: totals.failed,
      dead: totals.dead,
      retrying: totals.retrying,
    },
    byDay: [...byDayMap.values()].sort((a, b) => a.day.localeCompare(b.day)),
    recentFailures: await recentFailures(kv, internalIds, Date.parse(from)),
    latency: latency.overall,
    latencyByDay: latency.byDay,
  };
}

/**
 * Deletes counters (outcomes and latency) of days older than the retention period (plus a
 * week); returns how many.
 */
export async function pruneCounters(
  kv: Kv,
  retentionMs: number,
  now = Date.now(),
): Promise<number> {
  const oldest = utcDay(now - retentionMs - COUNTER_GRACE_MS);
  let pruned = 0;
  for await (const counter of kv.list({ prefix: deliveryCountersRoot() })) {
    if ((counter.key[2] as string) < oldest) {
      await kv.delete(counter.key);
      pruned++;
    }
  }
  return pruned + await pruneLatency(kv, oldest);
}
