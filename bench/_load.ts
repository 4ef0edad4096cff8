/**
 * The load the ingest benchmarks drive (not a benchmark itself: files starting with `_` are not
 * run): 16 connections of signed 28 KB `pull_request` deliveries, each with its own
 * `X-GitHub-Delivery`, from `wrk` when it is installed, else from a Deno client process
 * (`deno run -A bench/_load.ts URL SECONDS SIGNATURE`). Also the server's CPU time and a fresh
 * PostgreSQL database for the PostgreSQL runs.
 */
import { join } from "node:path";
import postgres from "postgres";
import { startTestPostgres, type TestPostgres } from "../testing/postgres.ts";

/** Concurrent connections of the load. */
export const CONNECTIONS = 16;
/** The delivery every request sends. */
export const FIXTURE = new URL(
  "../fixtures/github/pull_request/opened.payload.json",
  import.meta.url,
);
const WRK = "/usr/bin/wrk";

/** Whether `wrk` is installed (else the Deno client drives the load). */
export async function hasWrk(): Promise<boolean> {
  return await Deno.stat(WRK).then(() => true, () => false);
}

/** The tool that drives the load, for the figures' captions. */
export async function loadTool(): Promise<string> {
  return await hasWrk() ? "wrk 4.1 (2 threads)" : "Deno fetch client";
}

/** Drives `url` for `seconds` with the load; `dir` holds wrk's script. */
export async function runLoad(
  url: string,
  seconds: number,
  dir: string,
  signature: string,
): Promise<LoadResult> {
  return await hasWrk()
    ? await runWrk(url, seconds, dir, signature)
    : await runClientProcess(url, seconds, signature);
}

/**
 * A fresh database on the bench's PostgreSQL (testing/postgres.ts), committing as production
 * does: `synchronous_commit` on, so every commit is in the WAL before the answer. Null when
 * this machine has no PostgreSQL.
 */
export async function benchDatabase(): Promise<TestPostgres | null> {
  const database = await startTestPostgres();
  if (!database) return null;
  const url = new URL(database.url);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const sql = postgres(admin.href, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`ALTER DATABASE ${url.pathname.slice(1)} SET synchronous_commit = on`);
  } finally {
    await sql.end();
  }
  return database;
}

/** What one load run measured. */
export interface LoadResult {
  requests: number;
  ok: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
}

/** The `p` quantile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** The fallback client: 16 concurrent fetch loops, one JSON line of results. */
export async function runClient(url: string, seconds: number, signature: string): Promise<void> {
  const body = await Deno.readFile(FIXTURE);
  const latencies: number[] = [];
  let ok = 0;
  let sequence = 0;
  const run = crypto.randomUUID(); // delivery ids unique across runs, as in wrkScript
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: CONNECTIONS });
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      const response = await fetch(url, {
        method: "POST",
        body,
        client,
        headers: {
          "content-type": "application/json",
          "x-github-event": "pull_request",
          "x-github-delivery": `client-${run}-${sequence++}`,
          "x-hub-signature-256": signature,
        },
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - sent);
      if (response.ok) ok++;
    }
  }));
  client.close();
  latencies.sort((a, b) => a - b);
  const result: LoadResult = {
    requests: latencies.length,
    ok,
    seconds: (performance.now() - started) / 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
  console.log(JSON.stringify(result));
}

/**
 * wrk's request script: each request a new delivery id, unique across runs too (`run` differs
 * per run), so a warm-up run's ids are not sent again as duplicates in the measured run.
 */
function wrkScript(bodyPath: string, signature: string, run: string): string {
  return `
local file = io.open("${bodyPath}", "rb")
wrk.method = "POST"
wrk.body = file:read("*a")
file:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-GitHub-Event"] = "pull_request"
wrk.headers["X-Hub-Signature-256"] = "${signature}"
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end
local sequence = 0
function request()
  sequence = sequence + 1
  wrk.headers["X-GitHub-Delivery"] = string.format("wrk-${run}-%d-%d", thread_id, sequence)
  return wrk.format()
end
`;
}

function wrkMs(value: string, unit: string): number {
  const factor: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };
  return Number(value) * (factor[unit] ?? NaN);
}

async function runWrk(
  url: string,
  seconds: number,
  dir: string,
  signature: string,
): Promise<LoadResult> {
  const scriptPath = join(dir, "deliveries.lua");
  await Deno.writeTextFile(scriptPath, wrkScript(FIXTURE.pathname, signature, crypto.randomUUID()));
  const output = await new Deno.Command(WRK, {
    args: ["-t2", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "-s", scriptPath, url],
    stdout: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  const requests = Number(/(\d+) requests in ([\d.]+)s/.exec(text)?.[1]);
  const elapsed = Number(/(\d+) requests in ([\d.]+)s/.exec(text)?.[2]);
  const failed = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0) +
    Number(/Socket errors:.*?timeout (\d+)/.exec(text)?.[1] ?? 0);
  const p50 = /50%\s+([\d.]+)(us|ms|s)/.exec(text);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(text);
  if (!p50 || !p99 || !requests) throw new Error(`Cannot read wrk's output:\n${text}`);
  return {
    requests,
    ok: requests - failed,
    seconds: elapsed,
    p50Ms: wrkMs(p50[1], p50[2]),
    p99Ms: wrkMs(p99[1], p99[2]),
  };
}

async function runClientProcess(
  url: string,
  seconds: number,
  signature: string,
): Promise<LoadResult> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL(import.meta.url).pathname,
      url,
      String(seconds),
      signature,
    ],
    stdout: "piped",
  }).output();
  return JSON.parse(new TextDecoder().decode(output.stdout)) as LoadResult;
}

/** CPU seconds (user and system, all threads) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

if (import.meta.main) await runClient(Deno.args[0], Number(Deno.args[1]), Deno.args[2]);
