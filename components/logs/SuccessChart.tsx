import type { OverviewData } from "../../lib/admin/overview_page.ts";
import { ChartFrame } from "./ChartFrame.tsx";
import { formatPercent } from "./format.ts";
import { LINK, MUTED, TD, TH } from "./ui.ts";

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
      <figcaption class={`mt-2 flex flex-wrap gap-4 text-xs ${MUTED}`}>
        <span class="flex items-center gap-1.5">
          <span class="inline-block size-3 rounded-sm bg-emerald-500 dark:bg-emerald-400" />
          delivered
        </span>
        <span class="flex items-center gap-1.5">
          <span class="inline-block size-3 rounded-sm bg-red-400 dark:bg-red-500" />
          failed or dead
        </span>
        <span>Days are UTC.</span>
      </figcaption>
      <details class="mt-3">
        <summary class={`cursor-pointer text-sm ${LINK}`}>Numbers per day</summary>
        <div class="mt-2 overflow-x-auto">
          <table class="w-full text-sm" data-testid="daily-table">
            <caption class="sr-only">Deliveries per day</caption>
            <thead>
              <tr>
                <th scope="col" class={TH}>Day</th>
                <th scope="col" class={TH}>Delivered</th>
                <th scope="col" class={TH}>Failed</th>
                <th scope="col" class={TH}>Dead</th>
                <th scope="col" class={TH}>Success</th>
              </tr>
            </thead>
            <tbody class="divide-y divide-slate-100 dark:divide-slate-800">
              {daily.map(({ day, counts }) => {
                const rate = successRate(counts);
                return (
                  <tr key={day}>
                    <th scope="row" class={`${TD} text-left font-normal`}>
                      <a class={LINK} href={dayLogsHref(day)}>{day}</a>
                    </th>
                    <td class={`${TD} tabular-nums`}>{counts.ok}</td>
                    <td class={`${TD} tabular-nums`}>{counts.failed}</td>
                    <td class={`${TD} tabular-nums`}>{counts.dead}</td>
                    <td class={`${TD} tabular-nums`}>
                      {rate === null ? "–" : formatPercent(rate)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
