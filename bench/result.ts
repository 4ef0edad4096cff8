/**
 * The result lines every benchmark prints last, one JSON object per line, which
 * `bench/run.ts` collects into `bench/results.json` (see bench/README.md).
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

/** Marks a result line for the runner. */
export const RESULT_PREFIX = "BENCH_RESULT ";

/** Prints each result as one line: the prefix, then its JSON. */
export function printResults(results: readonly BenchResult[]): void {
  for (const result of results) console.log(RESULT_PREFIX + JSON.stringify(result));
}
