/**
 * Runs every benchmark under bench/ and collects their results: `deno task bench`.
 *
 * Each `bench/*.ts` file (except this runner, `result.ts` and files starting with `_`) is run
 * as its own process, one after the other, once per argument list in {@link ARGUMENTS}
 * (once without arguments otherwise), each with a time limit. Its output is shown as it comes; every line that is a
 * JSON result (`{"bench", "metric", "value", "unit"}`, see `result.ts`) is collected. At the
 * end the runner prints one table of all results and writes `bench/results.json`. Everything
 * listens on 127.0.0.1 only.
 *
 *   deno task bench             all benchmarks
 *   deno task bench filter      only the files whose name contains "filter"
 */
import { type BenchResult, parseResultLine } from "./result.ts";

/** The runs of each benchmark file (their arguments), chosen so the whole run takes a few minutes. */
const ARGUMENTS: Record<string, string[][]> = {
  "filter_bench.ts": [["2"]],
  "ingest_load.ts": [["5"], ["5", "--postgres"]],
  "app_ingest.ts": [["--store", "kv"], ["--store", "postgres"]],
  "instances_bench.ts": [["--store", "postgres"], ["--store", "kv"]],
  "cold_start.ts": [["5"]],
  "delivery_bench.ts": [
    ["--events", "200", "--scale", "100"],
    ["--throughput"],
    ["--throughput", "--postgres"],
  ],
  "event_search_bench.ts": [["--events", "100000", "--runs", "20"]],
  "notify_bench.ts": [["--users", "10000", "--events", "200"]],
};
/** The longest one benchmark may run. */
const TIME_LIMIT_MS = 5 * 60 * 1000;

const BENCH_DIR = new URL("./", import.meta.url);
const SKIPPED = new Set(["run.ts", "result.ts"]);

async function benchFiles(filter: string | undefined): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(BENCH_DIR)) {
    if (!entry.isFile || !entry.name.endsWith(".ts") || entry.name.startsWith("_")) continue;
    if (SKIPPED.has(entry.name) || (filter && !entry.name.includes(filter))) continue;
    files.push(entry.name);
  }
  return files.sort();
}

interface BenchRun {
  file: string;
  ok: boolean;
  seconds: number;
  results: BenchResult[];
}

async function runBench(file: string, args: string[]): Promise<BenchRun> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(file, BENCH_DIR).pathname, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const timer = setTimeout(() => {
    console.error(`${file}: over ${TIME_LIMIT_MS / 1000} s, stopped`);
    child.kill("SIGKILL");
  }, TIME_LIMIT_MS);
  const results: BenchResult[] = [];
  const take = (line: string) => {
    const result = parseResultLine(line);
    if (result) results.push(result);
    else console.log(line);
  };
  let pending = "";
  for await (const text of child.stdout.pipeThrough(new TextDecoderStream())) {
    const lines = (pending + text).split("\n");
    pending = lines.pop() ?? "";
    lines.forEach(take);
  }
  if (pending) take(pending);
  const status = await child.status;
  clearTimeout(timer);
  const label = [file, ...args].join(" ");
  return {
    file: label,
    ok: status.success,
    seconds: (performance.now() - started) / 1000,
    results,
  };
}

function format(value: number): string {
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

const files = await benchFiles(Deno.args[0]);
const runs: BenchRun[] = [];
for (const file of files) {
  for (const args of ARGUMENTS[file] ?? [[]]) {
    console.log(`\n## ${[file, ...args].join(" ")}\n`);
    runs.push(await runBench(file, args));
  }
}

const results = runs.flatMap((run) => run.results);
console.log("\n| bench | metric | value | unit |\n|---|---|---|---|");
for (const result of results) {
  console.log(`| ${result.bench} | ${result.metric} | ${format(result.value)} | ${result.unit} |`);
}
for (const run of runs) {
  const state = run.ok ? "ok" : "FAILED";
  console.log(
    `${run.file}: ${state} in ${run.seconds.toFixed(0)} s, ${run.results.length} results`,
  );
}

const summary = {
  date: new Date().toISOString(),
  deno: Deno.version.deno,
  cores: navigator.hardwareConcurrency,
  loadAverage: Deno.loadavg(),
  runs: runs.map(({ file, ok, seconds, results }) => ({
    file,
    ok,
    seconds: Math.round(seconds),
    results: results.length,
  })),
  results,
};
await Deno.writeTextFile(
  new URL("results.json", BENCH_DIR),
  JSON.stringify(summary, null, 2) + "\n",
);
console.log("\nwrote bench/results.json");
if (runs.some((run) => !run.ok)) Deno.exit(1);
