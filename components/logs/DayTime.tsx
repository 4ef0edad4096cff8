import { formatTime, isoTime } from "./format.ts";
import { MUTED } from "./ui.ts";

/** A UTC time in two lines, the day small above the time of day (for a table's time column). */
export function DayTime(props: { at: number }) {
  const text = formatTime(props.at);
  return (
    <time datetime={isoTime(props.at)}>
      <span class={`block text-xs ${MUTED}`}>{text.slice(0, 10)}</span>
      {text.slice(11)}
    </time>
  );
}
