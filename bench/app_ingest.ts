/**
 * The application as users start it, under ingest load:
 *
 *   deno run -A bench/app_ingest.ts [--store kv|postgres] [--seconds 5] [--rounds 2]
 *     [--profiles default,small]
 *
 * For each round, each memory profile in turn (so the profiles alternate and share the
 * machine's load): starts `deno task start` (profile `default`) or `deno task start:small`
 * (`small`), the whole server with its job worker, on 127.0.0.1 with a fresh KV file or a fresh
 * PostgreSQL database on this machine (bench/_load.ts), waits for `GET /health`, warms it up
 * with 1 s of load, drives `POST /webhook` with the load of bench/_load.ts (16 connections of signed 28 KB
 * `pull_request` deliveries, each a new event), then reads the server process's peak RSS
 * (`VmHWM`) and CPU time and stops it with SIGTERM. Prints a table of every run and the median
 * of each profile, then one result line per median (see bench/README.md).
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { signGithubBody } from "../lib/providers/github.ts";
import { highWaterMiB } from "../testing/memory_sample.ts";
import type { TestPostgres } from "../testing/postgres.ts";
import { type MemoryProfile, startTaskOf, startV8Flags } from "../testing/start_flags.ts";
import {
  benchDatabase,
  CONNECTIONS,
  cpuSeconds,
  FIXTURE,
  type LoadResult,
  loadTool,
  runLoad,
} from "./_load.ts";
import { freePort, median, waitReady } from "./_process.ts";
import { type BenchResult, printResults } from "./result.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const SECRET = "bench-app-secret";
/** Load before the measured run, so the server's code is compiled (not counted). */
const WARM_UP_SECONDS = 1;
/** The longest the server may take to answer `/health`. */
const START_TIMEOUT_MS = 60_000;

interface AppRun extends LoadResult {
  profile: MemoryProfile;
  peakRssMb: number;
  cpuUsPerRequest: number;
}

/** The processes started by `pid`, and theirs, depth first. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`).trim().split(/\s+/)
      .filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** The server process under a `deno task` process: the one that runs start.ts. */
function serverPid(taskPid: number): number {
  const found = descendants(taskPid).find((pid) => {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/cmdline`).includes("start.ts");
    } catch {
      return false;
    }
  });
  if (found === undefined) throw new Error("the start task runs no start.ts process");
  return found;
}

/** One run: the app started in `profile` on `store` (settings), under load for `seconds`. */
async function runApp(
  profile: MemoryProfile,
  store: Record<string, string>,
  seconds: number,
  dir: string,
): Promise<AppRun> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", startTaskOf(profile)],
    cwd: ROOT,
    env: {
      ...store,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      GITHUB_WEBHOOK_SECRET: SECRET,
      LOG_LEVEL: "error",
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    await waitReady(`http://127.0.0.1:${port}/health`, child, START_TIMEOUT_MS);
    const pid = serverPid(child.pid);
    const signature = await signGithubBody(SECRET, await Deno.readFile(FIXTURE));
    await runLoad(`http://127.0.0.1:${port}/webhook`, WARM_UP_SECONDS, dir, signature);
    const cpuBefore = cpuSeconds(pid);
    const load = await runLoad(`http://127.0.0.1:${port}/webhook`, seconds, dir, signature);
    const cpu = cpuSeconds(pid) - cpuBefore;
    return {
      ...load,
      profile,
      peakRssMb: highWaterMiB(pid),
      cpuUsPerRequest: cpu * 1e6 / Math.max(1, load.requests),
    };
  } finally {
    try {
      child.kill("SIGTERM");
    } catch {
      // already exited
    }
    await child.status;
  }
}

function rowOf(run: AppRun): string {
  return `| ${run.profile} | ${run.requests} | ${(run.ok / run.seconds).toFixed(0)} | ` +
    `${run.p50Ms.toFixed(1)} | ${run.p99Ms.toFixed(1)} | ${run.peakRssMb.toFixed(0)} | ` +
    `${run.cpuUsPerRequest.toFixed(0)} |`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      store: { type: "string", default: "kv" },
      seconds: { type: "string", default: "5" },
      rounds: { type: "string", default: "2" },
      profiles: { type: "string", default: "default,small" },
    },
  });
  const onPostgres = values.store === "postgres";
  const seconds = Number(values.seconds) || 5;
  const rounds = Number(values.rounds) || 1;
  const profiles = values.profiles!.split(",") as MemoryProfile[];
  const dir = await Deno.makeTempDir({ prefix: "switchyard-bench-" });
  const databases: TestPostgres[] = [];
  const freshStore = async (name: string): Promise<Record<string, string>> => {
    if (!onPostgres) return { KV_PATH: join(dir, `${name}.kv`) };
    const database = await benchDatabase();
    if (!database) throw new Error("no PostgreSQL: install Debian's postgresql to measure it");
    databases.push(database);
    return { DATABASE_URL: database.url };
  };
  const runs: AppRun[] = [];
  const loadBefore = Deno.loadavg()[0];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const profile of profiles) {
        runs.push(await runApp(profile, await freshStore(`${profile}-${round}`), seconds, dir));
      }
    }
  } finally {
    for (const database of databases) await database.stop().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
  const storeName = onPostgres ? "PostgreSQL (same machine)" : "KV file";
  const storeKey = onPostgres ? "pg" : "kv";
  const medians = profiles.map((profile) => {
    const own = runs.filter((run) => run.profile === profile);
    return {
      profile,
      perSecond: median(own.map((run) => run.ok / run.seconds)),
      p99: median(own.map((run) => run.p99Ms)),
      peakRss: median(own.map((run) => run.peakRssMb)),
      cpu: median(own.map((run) => run.cpuUsPerRequest)),
    };
  });
  const load = Deno.loadavg().map((value) => value.toFixed(1)).join(" / ");
  console.log([
    `## The app under ingest load (${storeName})`,
    "",
    `\`deno run -A bench/app_ingest.ts --store ${values.store}\`: \`deno task start\` and ` +
    `\`deno task start:small\` (${startV8Flags("small").join(" ")}), ${rounds} round(s) of ` +
    `${seconds} s each, ${CONNECTIONS} connections, ${await loadTool()}, ` +
    `${navigator.hardwareConcurrency} cores, load average ${
      loadBefore.toFixed(1)
    } before and ${load} after.`,
    "",
    "| profile | requests | accepted/s | p50 ms | p99 ms | peak RSS MiB | server CPU µs/request |",
    "|---|---|---|---|---|---|---|",
    ...runs.map(rowOf),
    "",
    ...medians.map((m) =>
      `- ${m.profile} (median): ${m.perSecond.toFixed(0)} accepted/s, p99 ${
        m.p99.toFixed(1)
      } ms, ` +
      `peak RSS ${m.peakRss.toFixed(0)} MiB, ${m.cpu.toFixed(0)} µs of server CPU per request`
    ),
  ].join("\n"));
  printResults(medians.flatMap((m): BenchResult[] => {
    const base = { bench: "app_ingest", store: values.store, rounds, seconds };
    const name = `${storeKey}.${m.profile}`;
    return [
      { ...base, metric: `${name}.accepted_per_s`, value: m.perSecond, unit: "per_s" },
      { ...base, metric: `${name}.p99`, value: m.p99, unit: "ms" },
      { ...base, metric: `${name}.peak_rss`, value: m.peakRss, unit: "mb" },
      { ...base, metric: `${name}.cpu_per_request`, value: m.cpu, unit: "us" },
    ];
  }));
}

await main();
