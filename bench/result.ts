/**
 * The result lines every benchmark prints last: one JSON object per line with `bench`,
 * `metric`, `value` and `unit`, which `bench/run.ts` collects into `bench/results.json`
 * (see bench/README.md).
 */

/** One measured figure. */
export interface BenchResult {
  /** The benchmark's name (`filter`, `ingest`, …). */
  bench: string;
  /** What was measured, dotted (`route_set_200.mean`). */
  metric: string;
  value: number;
  /** `us`, `ms`, `per_s`, `mb`, `ratio`, … */
  unit: string;
  /** Anything that qualifies the figure (routes, connections, …). */
  [detail: string]: unknown;
}

/** Prints each result as one JSON line. */
export function printResults(results: readonly BenchResult[]): void {
  for (const result of results) console.log(JSON.stringify(result));
}

/** The result a line of output holds, or null when it holds none. */
export function parseResultLine(line: string): BenchResult | null {
  const text = line.trim();
  if (!text.startsWith("{") || !text.endsWith("}")) return null;
  try {
    const value = JSON.parse(text);
    const valid = typeof value?.bench === "string" && typeof value.metric === "string" &&
      typeof value.value === "number" && typeof value.unit === "string";
    return valid ? value as BenchResult : null;
  } catch {
    return null;
  }
}
