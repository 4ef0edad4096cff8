import type { OverviewData } from "../../lib/admin/overview_page.ts";
import { ChartFrame } from "./ChartFrame.tsx";
import { ChartLegend, ChartNumbers } from "./ChartParts.tsx";
import { latencyAxis } from "./chart_ticks.ts";
import { formatDuration } from "./format.ts";

type Point = [x: number, y: number];

/** The runs of consecutive days that have a value (a day without success breaks the line). */
function runs(values: (number | undefined)[], top: number): Point[][] {
  const lines: Point[][] = [];
  let current: Point[] = [];
  values.forEach((value, index) => {
    if (value === undefined) {
      if (current.length > 0) lines.push(current);
      current = [];
    } else {
      current.push([index + 0.5, 100 - (value / top) * 100]);
    }
  });
  if (current.length > 0) lines.push(current);
  return lines;
}

function Series(props: { values: (number | undefined)[]; top: number; class: string }) {
  return (
    <>
      {runs(props.values, props.top).map((points, index) =>
        points.length === 1
          ? (
            <line
              key={index}
              x1={points[0][0] - 0.2}
              x2={points[0][0] + 0.2}
              y1={points[0][1]}
              y2={points[0][1]}
              class={props.class}
              stroke-width={3}
              vector-effect="non-scaling-stroke"
            />
          )
          : (
            <polyline
              key={index}
              points={points.map(([x, y]) => `${x},${y}`).join(" ")}
              fill="none"
              class={props.class}
              stroke-width={2.5}
              stroke-linejoin="round"
              vector-effect="non-scaling-stroke"
            />
          )
      )}
    </>
  );
}

/**
 * Delivery latency per day (accepted → platform answered): the median and the 95th percentile
 * as two lines (hand-written SVG), with the numbers in a table below.
 */
export function LatencyChart(props: { daily: OverviewData["daily"] }) {
  const { daily } = props;
  const p50 = daily.map((day) => day.latency?.p50Ms);
  const p95 = daily.map((day) => day.latency?.p95Ms);
  const axis = latencyAxis(Math.max(0, ...p95.filter((v) => v !== undefined)));
  const top = axis.top;
  return (
    <figure>
      <ChartFrame
        days={daily.length}
        axis={[...axis.labels].reverse()}
        size={{ height: "h-32", axisWidth: "w-14" }}
        testId="latency-chart"
      >
        <Series values={p95} top={top} class="stroke-amber-500 dark:stroke-amber-400" />
        <Series values={p50} top={top} class="stroke-indigo-600 dark:stroke-indigo-400" />
      </ChartFrame>
      <ChartLegend
        indent="ml-16"
        series={[
          {
            swatch: "inline-block h-0.5 w-4 bg-indigo-600 dark:bg-indigo-400",
            name: "median (p50)",
          },
          { swatch: "inline-block h-0.5 w-4 bg-amber-500 dark:bg-amber-400", name: "p95" },
        ]}
        note="From acceptance to the platform's answer, successful messages only."
      />
      <ChartNumbers
        summary="Latency per day"
        caption="Delivery latency per day"
        testId="latency-table"
        columns={["Day", "Delivered", "p50", "p95"]}
        rows={daily.map(({ day, latency }) => ({
          day,
          head: day,
          cells: [
            latency?.count ?? 0,
            latency?.p50Ms === undefined ? "–" : formatDuration(latency.p50Ms),
            latency?.p95Ms === undefined ? "–" : formatDuration(latency.p95Ms),
          ],
        }))}
      />
    </figure>
  );
}
