import { GroupSelect } from "./FilterFields.tsx";
import type { ComponentChildren } from "preact";
import { OVERVIEW_PERIODS, type OverviewData } from "../../lib/admin/overview_page.ts";
import { FailureBreakdown } from "./FailureBreakdown.tsx";
import { formatDuration, formatPercent } from "./format.ts";
import { LatencyChart } from "./LatencyChart.tsx";
import { RecentFailures } from "./RecentFailures.tsx";
import { SuccessChart, successRate } from "./SuccessChart.tsx";
import { CARD, INPUT, LABEL, LINK, MUTED, SECONDARY_BUTTON } from "./ui.ts";

function Stat(props: { label: string; value: string; note?: string; testId: string }) {
  return (
    <div class={`${CARD} p-4`}>
      <dt class={`text-xs font-medium ${MUTED}`}>{props.label}</dt>
      <dd class="mt-1 text-2xl font-semibold tabular-nums" data-testid={props.testId}>
        {props.value}
      </dd>
      {props.note && <dd class={`mt-0.5 text-xs ${MUTED}`}>{props.note}</dd>}
    </div>
  );
}

function Panel(props: { title: string; id: string; children: ComponentChildren; wide?: boolean }) {
  return (
    <section
      aria-labelledby={props.id}
      class={`${CARD} p-4 sm:p-6 ${props.wide ? "lg:col-span-2" : ""}`}
    >
      <h2 id={props.id} class="mb-4 text-base font-semibold">{props.title}</h2>
      {props.children}
    </section>
  );
}

/** The period and group of the overview: a GET form. */
function OverviewFilters(props: { data: OverviewData }) {
  const { data } = props;
  return (
    <form method="get" action="/admin" class="flex flex-wrap items-end gap-3" aria-label="Period">
      {data.groups.length > 1 && <GroupSelect groups={data.groups} selected={data.group} />}
      <label class={LABEL}>
        Period
        <select class={INPUT} name="days">
          {OVERVIEW_PERIODS.map((days) => (
            <option key={days} value={days} selected={data.days === days}>
              Last {days} days
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class={SECONDARY_BUTTON}>Show</button>
    </form>
  );
}

/** The send logs of the overview's group and period with one status. */
function periodLogsHref(data: OverviewData, status: "failed" | "dead"): string {
  const query = new URLSearchParams({ status });
  if (data.group) query.set("group", data.group);
  if (data.metrics) {
    query.set("from", data.metrics.from);
    query.set("to", data.metrics.to);
  }
  return `/admin/logs?${query}`;
}

/**
 * The delivery overview: totals, success rate per day, latency per day, failures by platform
 * and by event, and the newest failures with links to their logs.
 */
export function OverviewDashboard(props: { data: OverviewData }) {
  const { data } = props;
  const { metrics } = data;
  return (
    <div class="flex flex-col gap-6">
      <div class="flex flex-wrap items-end justify-between gap-3">
        <p class={`text-sm ${MUTED}`}>
          Deliveries {data.group ? `of group ${data.group}` : "of all your groups"} from{" "}
          {metrics?.from ?? "–"} to {metrics?.to ?? "–"} (UTC).
        </p>
        <OverviewFilters data={data} />
      </div>
      {data.error !== undefined && (
        <p
          role="alert"
          class="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          {data.error}
        </p>
      )}
      {metrics && (
        <>
          <dl class="grid grid-cols-2 gap-3 lg:grid-cols-5">
            <Stat label="Delivered" value={String(metrics.totals.ok)} testId="total-delivered" />
            <Stat
              label="Failed"
              value={String(metrics.totals.failed + metrics.totals.dead)}
              note={`${metrics.totals.dead} dead after every retry`}
              testId="total-failed"
            />
            <Stat
              label="Success rate"
              value={successRate(metrics.totals) === null
                ? "–"
                : formatPercent(successRate(metrics.totals)!)}
              testId="success-rate"
            />
            <Stat
              label="Latency (median)"
              value={metrics.latency.p50Ms === undefined
                ? "–"
                : formatDuration(metrics.latency.p50Ms)}
              note={metrics.latency.p95Ms === undefined
                ? "accepted → platform answered"
                : `p95 ${formatDuration(metrics.latency.p95Ms)}, accepted → platform answered`}
              testId="latency"
            />
            <Stat
              label="Retries"
              value={String(metrics.totals.retrying)}
              note="attempts scheduled again"
              testId="total-retrying"
            />
          </dl>
          <div class="grid gap-6 lg:grid-cols-2">
            <Panel title="Success rate per day" id="success-title">
              <SuccessChart daily={data.daily} />
            </Panel>
            <Panel title="Delivery latency per day" id="latency-title">
              <LatencyChart daily={data.daily} />
            </Panel>
            <Panel title="Failures" id="failures-title">
              <div class="grid gap-6">
                <FailureBreakdown
                  title="By platform"
                  filter="platform"
                  counts={metrics.byPlatform}
                />
                <FailureBreakdown title="By event" filter="event" counts={metrics.byEvent} />
              </div>
            </Panel>
            <Panel title="Recent failures" id="recent-title">
              <RecentFailures
                logs={metrics.recentFailures}
                total={metrics.totals.failed + metrics.totals.dead}
              />
              <p class="mt-3 text-sm">
                <a class={LINK} href={periodLogsHref(data, "failed")}>Every failed message</a>
                <span class={`mx-1 ${MUTED}`} aria-hidden="true">·</span>
                <a class={LINK} href={periodLogsHref(data, "dead")}>Every dead message</a>
              </p>
            </Panel>
          </div>
        </>
      )}
    </div>
  );
}
