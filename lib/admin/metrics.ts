/**
 * `GET /admin/api/metrics`: delivery statistics from the delivery counters. A super admin
 * without `groupId` sees the whole instance; anyone else sees one group they can read, or the
 * sum over all of their groups (recent failures included only from those groups).
 */
import type { Principal } from "../auth/principal.ts";
import { type DeliveryMetrics, type OutcomeCounts, readMetrics, utcDay } from "../store/metrics.ts";
import { requireRight } from "./guards.ts";

const RECENT_FAILURES = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

function addCounts(into: OutcomeCounts, from: OutcomeCounts): OutcomeCounts {
  into.total += from.total;
  into.ok += from.ok;
  into.failed += from.failed;
  into.dead += from.dead;
  into.retrying += from.retrying;
  return into;
}

const zero = (): OutcomeCounts => ({ total: 0, ok: 0, failed: 0, dead: 0, retrying: 0 });

function addByKey(into: Record<string, OutcomeCounts>, from: Record<string, OutcomeCounts>) {
  for (const [key, counts] of Object.entries(from)) addCounts(into[key] ??= zero(), counts);
}

/** The sum of several scopes' metrics over the same days. */
export function sumMetrics(parts: readonly DeliveryMetrics[], days: { from: string; to: string }) {
  const totals = zero();
  const byPlatform: Record<string, OutcomeCounts> = {};
  const byEvent: Record<string, OutcomeCounts> = {};
  const byDay = new Map<string, OutcomeCounts & { day: string }>();
  for (const part of parts) {
    addCounts(totals, part.totals);
    addByKey(byPlatform, part.byPlatform);
    addByKey(byEvent, part.byEvent);
    for (const { day, ...counts } of part.byDay) {
      if (!byDay.has(day)) byDay.set(day, { day, ...zero() });
      addCounts(byDay.get(day)!, counts);
    }
  }
  const final = totals.ok + totals.failed + totals.dead;
  return {
    ...days,
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
    byDay: [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day)),
    recentFailures: parts.flatMap((part) => part.recentFailures)
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, RECENT_FAILURES),
  };
}

/** The metrics the caller may see (see the module comment). */
export async function queryMetrics(
  kv: Deno.Kv,
  principal: Principal,
  query: { groupId?: string; days?: number },
): Promise<DeliveryMetrics> {
  const { groupId, days } = query;
  if (groupId !== undefined) {
    requireRight(principal, groupId, "read");
    return await readMetrics(kv, { groupId, days });
  }
  if (principal.superAdmin) return await readMetrics(kv, { days });
  const now = Date.now();
  const parts = await Promise.all(
    Object.keys(principal.roles).map((id) => readMetrics(kv, { groupId: id, days, now })),
  );
  const span = Math.min(Math.max(Math.trunc(days ?? 7), 1), 366);
  return sumMetrics(parts, { from: utcDay(now - (span - 1) * DAY_MS), to: utcDay(now) });
}
