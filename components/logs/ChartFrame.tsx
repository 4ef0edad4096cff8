import type { ComponentChildren } from "preact";
import { MUTED } from "./ui.ts";

/**
 * The frame of the overview's day charts (hand-written SVG, hidden from screen readers: each
 * chart has a table of its numbers): axis labels at even steps from the top down to 0, beside a
 * plot one unit wide per day and 100 high, with a grid line at each label.
 */
export function ChartFrame(
  props: {
    days: number;
    /** The axis labels from the top down to 0, evenly spaced (at least two). */
    axis: readonly string[];
    /** The height and the axis labels' width, as classes (`h-40 w-10`). */
    size: { height: string; axisWidth: string };
    testId: string;
    children: ComponentChildren;
  },
) {
  return (
    <div class="flex gap-2">
      <div
        class={`flex ${props.size.height} ${props.size.axisWidth} shrink-0 flex-col justify-between text-right text-xs tabular-nums ${MUTED}`}
        aria-hidden="true"
      >
        {props.axis.map((label, index) => <span key={index}>{label}</span>)}
      </div>
      <svg
        viewBox={`0 0 ${props.days} 100`}
        preserveAspectRatio="none"
        class={`${props.size.height} min-w-0 flex-1 overflow-visible`}
        aria-hidden="true"
        data-testid={props.testId}
      >
        {props.axis.map((_, index) => (index * 100) / (props.axis.length - 1)).map((y) => (
          <line
            key={y}
            x1={0}
            x2={props.days}
            y1={y}
            y2={y}
            class="stroke-slate-200 dark:stroke-slate-700"
            stroke-width={1}
            vector-effect="non-scaling-stroke"
          />
        ))}
        {props.children}
      </svg>
    </div>
  );
}
