/**
 * Cold start benchmark: `deno run -A bench/cold_start.ts [runs]`.
 *
 * Starts the server as a fresh process on 127.0.0.1 with a new KV file and polls
 * `GET /health` every 2 ms until it answers 200; the time from spawning the process to that
 * answer is the cold start. Measured two ways, each `runs` times (default 5) after one
 * warm-up: `deno run -A main.ts` (assets already built), and the whole `deno task start`
 * (which first checks, without rebuilding, that the built assets are current). Prints a
 * table, then one result line per figure (see bench/README.md).
 */
import { join } from "node:path";
import { type BenchResult, printResults } from "./result.ts";
import { freePort } from "./_process.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const POLL_MS = 2;

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(url);
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Milliseconds from spawning `args` to the first 200 from `/health`. */
async function startOnce(args: string[], dir: string, run: number): Promise<number> {
  const port = freePort();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { PORT: String(port), HOSTNAME: "127.0.0.1", KV_PATH: join(dir, `cold-${run}.kv`) },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const url = `http://127.0.0.1:${port}/health`;
    while (!(await healthy(url))) {
      if (performance.now() - started > 30_000) throw new Error(`no /health after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return performance.now() - started;
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

async function measure(args: string[], runs: number, dir: string): Promise<number[]> {
  await startOnce(args, dir, -1);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await startOnce(args, dir, run));
  return times.sort((a, b) => a - b);
}

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)];

const runs = Number(Deno.args[0] ?? 5) || 5;
const dir = await Deno.makeTempDir({ prefix: "switchyard-cold-" });
try {
  const main = await measure(["run", "-A", "main.ts"], runs, dir);
  const task = await measure(["task", "start"], runs, dir);
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log("| start | median | fastest | slowest |\n|---|---|---|---|");
  console.log(
    `| \`deno run -A main.ts\` | ${ms(median(main))} | ${ms(main[0])} | ${ms(main.at(-1)!)} |`,
  );
  console.log(
    `| \`deno task start\` (asset check, then the server) | ${ms(median(task))} | ` +
      `${ms(task[0])} | ${ms(task.at(-1)!)} |`,
  );
  const results: BenchResult[] = [
    { bench: "cold_start", metric: "main.median", value: median(main), unit: "ms", runs },
    { bench: "cold_start", metric: "task_start.median", value: median(task), unit: "ms", runs },
  ];
  printResults(results);
} finally {
  await Deno.remove(dir, { recursive: true });
}
