/** The legend and the table of numbers every overview chart has below its plot. */
import type { ComponentChildren } from "preact";
import { LINK, MUTED, TD, TH } from "./ui.ts";

/** A chart's legend: a swatch and a name per series, then a note; `indent` lines it up. */
export function ChartLegend(
  props: { series: readonly { swatch: string; name: string }[]; note: string; indent?: string },
) {
  return (
    <figcaption class={`mt-2 ${props.indent ?? ""} flex flex-wrap gap-4 text-xs ${MUTED}`}>
      {props.series.map((entry) => (
        <span key={entry.name} class="flex items-center gap-1.5">
          <span class={entry.swatch} />
          {entry.name}
        </span>
      ))}
      <span>{props.note}</span>
    </figcaption>
  );
}

/** One day's row of a chart's table: the day, then a number per column. */
export interface ChartRow {
  day: string;
  head: ComponentChildren;
  cells: readonly ComponentChildren[];
}

/** A chart's numbers per day, in a table folded under `summary`, for every reader. */
export function ChartNumbers(
  props: {
    summary: string;
    caption: string;
    testId: string;
    columns: readonly string[];
    rows: readonly ChartRow[];
  },
) {
  return (
    <details class="mt-3">
      <summary class={`cursor-pointer text-sm ${LINK}`}>{props.summary}</summary>
      <div class="mt-2 overflow-x-auto">
        <table class="w-full text-sm" data-testid={props.testId}>
          <caption class="sr-only">{props.caption}</caption>
          <thead>
            <tr>
              {props.columns.map((column) => <th key={column} scope="col" class={TH}>{column}</th>)}
            </tr>
          </thead>
          <tbody class="divide-y divide-slate-100 dark:divide-slate-800">
            {props.rows.map((row) => (
              <tr key={row.day}>
                <th scope="row" class={`${TD} text-left font-normal`}>{row.head}</th>
                {row.cells.map((cell, index) => (
                  <td key={index} class={`${TD} tabular-nums`}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
