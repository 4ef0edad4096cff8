/**
 * The console overview's numbers: the delivery metrics of `GET /admin/api/metrics` for the
 * caller (one group, or all the caller may see) over the chosen number of days, with every day
 * of the period present (days without deliveries count zero), so a chart has one bar per day.
 */
import type { Kv } from "../store/backend/types.ts";
import { type Principal, readableGroups } from "../auth/principal.ts";
import { HttpError } from "../fresh/http_error.ts";
import { isId } from "../ids.ts";
import { listGroups } from "../store/config/groups.ts";
import type { DayCounts, DeliveryMetrics } from "../store/telemetry/metrics.ts";
import type { DayLatency } from "../store/telemetry/latency.ts";
import { queryMetrics } from "./metrics.ts";

/** The periods the overview offers, in days. */
export const OVERVIEW_PERIODS = [7, 14, 30] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the overview renders. */
export interface OverviewData {
  /** The group shown (none: every group the caller may see). */
  group?: string;
  days: number;
  groups: { id: string; name: string }[];
  /** Why the numbers could not be read. */
  error?: string;
  /** The page's HTTP status: 200, or the 4xx of the refusal in `error`. */
  status: number;
  metrics?: DeliveryMetrics;
  /** One entry per day of the period, oldest first. */
  daily: { day: string; counts: DayCounts; latency?: DayLatency }[];
}

/** The UTC days from `from` to `to` (`YYYY-MM-DD`, both included). */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(from); at <= Date.parse(to); at += DAY_MS) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/** The overview for the caller, from the page's `group` and `days` parameters. */
export async function loadOverview(
  kv: Kv,
  principal: Principal,
  params: URLSearchParams,
): Promise<OverviewData> {
  const requested = Number(params.get("days"));
  const days = OVERVIEW_PERIODS.find((period) => period === requested) ?? OVERVIEW_PERIODS[0];
  const group = params.get("group") || undefined;
  const groups = readableGroups(principal, await listGroups(kv))
    .map(({ id, name }) => ({ id, name }));
  const data: OverviewData = { group, days, groups, daily: [], status: 200 };
  if (group !== undefined && !isId("group", group)) {
    return { ...data, error: "Unknown group", status: 404 };
  }
  try {
    const metrics = await queryMetrics(kv, principal, { groupId: group, days });
    const counts = new Map(metrics.byDay.map((day) => [day.day, day]));
    const latency = new Map(metrics.latencyByDay.map((day) => [day.day, day]));
    const daily = daysBetween(metrics.from, metrics.to).map((day) => ({
      day,
      counts: counts.get(day) ?? { day, total: 0, ok: 0, failed: 0, dead: 0, retrying: 0 },
      latency: latency.get(day),
    }));
    return { ...data, metrics, daily };
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      return { ...data, error: error.message, status: error.status };
    }
    throw error;
  }
}
