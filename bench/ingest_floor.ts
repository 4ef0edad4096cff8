/**
 * What this machine allows a durable ingest, as a bound for the app's figures:
 *
 *   deno run -A bench/ingest_floor.ts [--store kv,postgres] [--seconds 5] [--rounds 2]
 *
 * Runs `_floor_server.ts`, the least work a durable ingest can do (verify the HMAC over the raw
 * body, parse the JSON, deflate it, commit it with its delivery id's dedup check in one write per
 * batch, answer once that write is durable; nothing else), under the same load as `app_ingest.ts`
 * (bench/_load.ts: 16 connections of signed 28 KB `pull_request` deliveries, each a new event,
 * driven from this machine), on a fresh KV file and on a fresh PostgreSQL database on this
 * machine (`synchronous_commit` on). Reports accepted/s, p99, the server's CPU per request and,
 * on PostgreSQL, the CPU of every `postgres` process per request; the median of the rounds.
 * Anything the app does beyond this (routing, jobs, the worker's fan-out, the console's records)
 * costs CPU on the same cores, so the app's figures stay below these.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { signGithubBody } from "../lib/providers/github.ts";
import type { TestPostgres } from "../testing/postgres.ts";
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

const SECRET = "bench-floor-secret";
const SERVER = new URL("./_floor_server.ts", import.meta.url).pathname;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;
const WARM_UP_SECONDS = 1;
const START_TIMEOUT_MS = 30_000;

type Store = "kv" | "postgres";

interface FloorRun extends LoadResult {
  store: Store;
  serverUsPerRequest: number;
  postgresUsPerRequest: number;
}

/** CPU seconds used so far by every process named `postgres` on this machine. */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      if (stat.includes("(postgres)")) total += cpuSeconds(Number(entry.name));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

async function runFloor(
  store: Store,
  settings: Record<string, string>,
  seconds: number,
  dir: string,
): Promise<FloorRun> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, SERVER],
    env: { ...settings, PORT: String(port), SECRET },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    const url = `http://127.0.0.1:${port}/webhook`;
    await waitReady(url, child, START_TIMEOUT_MS);
    const signature = await signGithubBody(SECRET, await Deno.readFile(FIXTURE));
    await runLoad(url, WARM_UP_SECONDS, dir, signature);
    const serverBefore = cpuSeconds(child.pid);
    const postgresBefore = postgresCpuSeconds();
    const load = await runLoad(url, seconds, dir, signature);
    const per = (cpu: number) => cpu * 1e6 / Math.max(1, load.requests);
    return {
      ...load,
      store,
      serverUsPerRequest: per(cpuSeconds(child.pid) - serverBefore),
      postgresUsPerRequest: store === "postgres" ? per(postgresCpuSeconds() - postgresBefore) : 0,
    };
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      store: { type: "string", default: "kv,postgres" },
      seconds: { type: "string", default: "5" },
      rounds: { type: "string", default: "2" },
    },
  });
  const stores = values.store!.split(",") as Store[];
  const seconds = Number(values.seconds) || 5;
  const rounds = Number(values.rounds) || 1;
  const dir = await Deno.makeTempDir({ prefix: "switchyard-floor-" });
  const databases: TestPostgres[] = [];
  const settingsOf = async (store: Store, round: number): Promise<Record<string, string>> => {
    if (store === "kv") return { KV_PATH: join(dir, `floor-${round}.kv`) };
    const database = await benchDatabase();
    if (!database) throw new Error("no PostgreSQL: install Debian's postgresql to measure it");
    databases.push(database);
    return { DATABASE_URL: database.url };
  };
  const runs: FloorRun[] = [];
  const loadBefore = Deno.loadavg()[0];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const store of stores) {
        runs.push(await runFloor(store, await settingsOf(store, round), seconds, dir));
      }
    }
  } finally {
    for (const database of databases) await database.stop().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
  const medians = stores.map((store) => {
    const own = runs.filter((run) => run.store === store);
    return {
      store,
      perSecond: median(own.map((run) => run.ok / run.seconds)),
      p99: median(own.map((run) => run.p99Ms)),
      server: median(own.map((run) => run.serverUsPerRequest)),
      postgres: median(own.map((run) => run.postgresUsPerRequest)),
    };
  });
  console.log([
    "## The ingest floor: the least work a durable ingest can do",
    "",
    `\`deno run -A bench/ingest_floor.ts\`: ${rounds} round(s) of ${seconds} s, ${CONNECTIONS} ` +
    `connections, ${await loadTool()}, ${navigator.hardwareConcurrency} cores, load average ` +
    `${loadBefore.toFixed(1)} before and ${Deno.loadavg()[0].toFixed(1)} after.`,
    "",
    "| store | requests | accepted/s | p50 ms | p99 ms | server CPU µs/request | PostgreSQL CPU µs/request |",
    "|---|---|---|---|---|---|---|",
    ...runs.map((run) =>
      `| ${run.store} | ${run.requests} | ${(run.ok / run.seconds).toFixed(0)} | ` +
      `${run.p50Ms.toFixed(1)} | ${run.p99Ms.toFixed(1)} | ${
        run.serverUsPerRequest.toFixed(0)
      } | ` +
      `${run.store === "postgres" ? run.postgresUsPerRequest.toFixed(0) : "—"} |`
    ),
    "",
    ...medians.map((m) =>
      `- ${m.store} (median): ${m.perSecond.toFixed(0)} accepted/s, p99 ${m.p99.toFixed(1)} ms`
    ),
  ].join("\n"));
  printResults(medians.flatMap((m): BenchResult[] => {
    const base = { bench: "ingest_floor", store: m.store, rounds, seconds };
    const results: BenchResult[] = [
      { ...base, metric: `${m.store}.accepted_per_s`, value: m.perSecond, unit: "per_s" },
      { ...base, metric: `${m.store}.p99`, value: m.p99, unit: "ms" },
      { ...base, metric: `${m.store}.server_cpu_per_request`, value: m.server, unit: "us" },
    ];
    if (m.store === "postgres") {
      results.push({
        ...base,
        metric: `${m.store}.postgres_cpu_per_request`,
        value: m.postgres,
        unit: "us",
      });
    }
    return results;
  }));
}

await main();
