/**
 * Axis ticks for the overview's charts: from 0 up past the highest value in equal steps of
 * 1, 2 or 5 × 10ⁿ (at most five steps), and the latency axis labelled in one unit (ms, s, min
 * or h) chosen by its top, so the labels read as even steps ("0, 0.5 s, 1 s, 1.5 s").
 * Pure functions, used on the server and in islands.
 */

/** Most steps between 0 and the top tick. */
const MAX_STEPS = 5;
const STEP_MANTISSAS = [1, 2, 5, 10];

/** The ticks of an axis from 0 to the first round step at or above `max`, evenly spaced. */
export function niceTicks(max: number): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const rough = max / MAX_STEPS;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = STEP_MANTISSAS.find((mantissa) => mantissa * magnitude >= rough)! * magnitude;
  const steps = Math.ceil(Number((max / step).toPrecision(12)));
  return Array.from({ length: steps + 1 }, (_, index) => Number((index * step).toPrecision(12)));
}

/** Units of the latency axis, the largest first: one is used for every label. */
const DURATION_UNITS = [
  { name: "h", ms: 3_600_000, from: 2 * 3_600_000 },
  { name: "min", ms: 60_000, from: 2 * 60_000 },
  { name: "s", ms: 1_000, from: 1_000 },
  { name: "ms", ms: 1, from: 0 },
] as const;

/** The latency axis never goes below 10 ms, so an empty chart reads 0 to 10 ms. */
const MIN_TOP_MS = 10;

/** A latency axis: its ticks in milliseconds (0 first), their labels, and the top tick. */
export interface LatencyAxis {
  ticks: number[];
  labels: string[];
  top: number;
}

/** The axis of a latency chart whose highest value is `maxMs` milliseconds. */
export function latencyAxis(maxMs: number): LatencyAxis {
  const highest = Math.max(MIN_TOP_MS, Number.isFinite(maxMs) ? maxMs : 0);
  const unit = DURATION_UNITS.find((candidate) => highest >= candidate.from)!;
  const ticks = niceTicks(highest / unit.ms).map((tick) => tick * unit.ms);
  const labels = ticks.map((tick) =>
    tick === 0 ? "0" : `${Number((tick / unit.ms).toPrecision(12))} ${unit.name}`
  );
  return { ticks, labels, top: ticks.at(-1)! };
}
