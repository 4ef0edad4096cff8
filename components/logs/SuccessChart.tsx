import type { OverviewData } from "../../lib/admin/overview_page.ts";
import { ChartFrame } from "./ChartFrame.tsx";
import { ChartLegend, ChartNumbers } from "./ChartParts.tsx";
import { formatPercent } from "./format.ts";
import { LINK, MUTED } from "./ui.ts";

/** How many day labels fit under the chart: every day for a week, fewer for longer periods. */
function labelEvery(days: number): number {
  return days <= 7 ? 1 : days <= 14 ? 2 : 5;
}

/** The success rate of a day's final outcomes; null when none was final. */
export function successRate(counts: { ok: number; failed: number; dead: number }): number | null {
  const final = counts.ok + counts.failed + counts.dead;
  return final === 0 ? null : counts.ok / final;
}

/** The logs of one UTC day. */
function dayLogsHref(day: string, status?: string): string {
  return `/admin/logs?from=${day}&to=${day}${status ? `&status=${status}` : ""}`;
}

/**
 * Success rate per day as bars (hand-written SVG: green up to the rate, red above it, grey for
 * a day without deliveries), with the numbers in a table below for every reader.
 */
export function SuccessChart(props: { daily: OverviewData["daily"] }) {
  const { daily } = props;
  const every = labelEvery(daily.length);
  return (
    <figure>
      <ChartFrame
        days={daily.length}
        axis={["100%", "50%", "0%"]}
        size={{ height: "h-40", axisWidth: "w-10" }}
        testId="success-chart"
      >
        {daily.map(({ day, counts }, index) => {
          const rate = successRate(counts);
          const x = index + 0.15;
          if (rate === null) {
            return (
              <rect
                key={day}
                data-day={day}
                x={x}
                y={98}
                width={0.7}
                height={2}
                class="fill-slate-300 dark:fill-slate-600"
              >
                <title>{`${day}: no deliveries`}</title>
              </rect>
            );
          }
          return (
            <g key={day} data-day={day} data-rate={rate.toFixed(4)}>
              <title>
                {`${day}: ${formatPercent(rate)} of ${counts.total} delivered`}
              </title>
              <rect
                x={x}
                y={0}
                width={0.7}
                height={100 - rate * 100}
                class="fill-red-400 dark:fill-red-500"
              />
              <rect
                x={x}
                y={100 - rate * 100}
                width={0.7}
                height={rate * 100}
                class="fill-emerald-500 dark:fill-emerald-400"
              />
            </g>
          );
        })}
      </ChartFrame>
      <div class={`ml-12 flex text-xs tabular-nums ${MUTED}`} aria-hidden="true">
        {daily.map(({ day }, index) => (
          <span key={day} class="flex-1 text-center">
            {(daily.length - 1 - index) % every === 0 ? day.slice(5) : ""}
          </span>
        ))}
      </div>
      <ChartLegend
        series={[
          {
            swatch: "inline-block size-3 rounded-sm bg-emerald-500 dark:bg-emerald-400",
            name: "delivered",
          },
          {
            swatch: "inline-block size-3 rounded-sm bg-red-400 dark:bg-red-500",
            name: "failed or dead",
          },
        ]}
        note="Days are UTC."
      />
      <ChartNumbers
        summary="Numbers per day"
        caption="Deliveries per day"
        testId="daily-table"
        columns={["Day", "Delivered", "Failed", "Dead", "Success"]}
        rows={daily.map(({ day, counts }) => {
          const rate = successRate(counts);
          return {
            day,
            head: <a class={LINK} href={dayLogsHref(day)}>{day}</a>,
            cells: [
              counts.ok,
              counts.failed,
              counts.dead,
              rate === null ? "–" : formatPercent(rate),
            ],
          };
        })}
      />
    </figure>
  );
}
