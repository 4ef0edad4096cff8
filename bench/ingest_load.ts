/**
 * Ingress load benchmark: `deno run -A bench/ingest_load.ts [seconds] [--postgres]`.
 *
 * Starts servers on 127.0.0.1, each in its own process: the webhook ingress
 * (`handleWebhook` over a KV file in a temp folder), the same with the real delivery
 * worker (the application's queue handlers, no routes configured) running on the same
 * file, and a bare `Deno.serve` that reads the body and answers `{ ok: true }`. Each is
 * driven for the given time (default 5 s) with the load of bench/_load.ts: 16 connections of
 * signed 28 KB `pull_request` deliveries, each with its own `X-GitHub-Delivery`, from `wrk`
 * when it is installed, else from a Deno client process. Then measures, in this
 * process, what one request costs in each stage (signature, parse, compress) and what a
 * commit of 1, 8, 16 or 32 events costs on a KV file. With `--postgres` it measures the
 * ingress alone and with the worker on a fresh PostgreSQL database on this machine instead
 * (bench/_load.ts), and no stages. Prints a Markdown section with the figures, then one result
 * line per figure (see bench/README.md).
 */
import type { KvCommitResult } from "../lib/store/backend/types.ts";
import { join } from "node:path";
import { fromUtf8 } from "../lib/encoding.ts";
import { handleWebhook } from "../lib/ingest/handle.ts";
import { github, signGithubBody } from "../lib/providers/github.ts";
import { WEBHOOK_BODY_BYTES } from "../lib/limits.ts";
import { readBody } from "../lib/request_body.ts";
import {
  addEventWrites,
  type NewEvent,
  type PreparedEvent,
  prepareEvent,
} from "../lib/store/delivery/events.ts";
import { addDeliverJob } from "../lib/store/delivery/fan_out_jobs.ts";
import { type GroupCommitStats, groupCommitStats } from "../lib/store/delivery/group_commit.ts";
import {
  describeSample,
  highWaterMiB,
  type MemorySample,
  MemorySampler,
} from "../testing/memory_sample.ts";
import { type BenchResult, printResults } from "./result.ts";
import { startV8Flags } from "../testing/start_flags.ts";
import { loadConfig } from "../lib/config.ts";
import { closeStore, openStore } from "../lib/store/kv.ts";
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

const SECRET = "bench-secret";

interface ServerRun extends LoadResult {
  peakRssMb: number;
  /** The server's own sample at its highest RSS: anonymous, file and V8 memory. */
  atPeak: MemorySample | null;
  /** CPU seconds the server process used (all its threads) while the load ran. */
  cpuSeconds: number;
  /** The group commit's counters, for servers that accept events. */
  commits?: GroupCommitStats;
}

/** Whether a store location is a PostgreSQL URL rather than a KV file path. */
function isDatabaseUrl(where: string): boolean {
  return /^postgres(ql)?:\/\//.test(where);
}

/** The settings that open the store at `where` (a KV file path or a PostgreSQL URL). */
function storeEnv(where: string): Record<string, string> {
  return isDatabaseUrl(where) ? { DATABASE_URL: where } : { KV_PATH: where };
}

async function serveIngress(where: string, withWorker: boolean): Promise<void> {
  const kv = await openStore(loadConfig(storeEnv(where)));
  if (withWorker) {
    // Loaded only here, so the ingress-alone server holds no more code than the ingress.
    const [{ createLogger }, { queueHandlers }, { startQueueWorker }] = await Promise.all([
      import("../lib/log.ts"),
      import("../lib/queue_handlers.ts"),
      import("../lib/delivery/job_worker.ts"),
    ]);
    const log = createLogger({ minLevel: "error" });
    const config = loadConfig(storeEnv(where));
    startQueueWorker(kv, queueHandlers({ kv, config, log }).handlers, log);
  }
  const deps = { kv, secrets: { github: [SECRET], gitea: [], custom: [] } };
  const sampler = new MemorySampler();
  Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(port) },
    (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/stats") return Response.json(groupCommitStats(kv));
      if (path === "/memory") return Response.json(sampler.stop());
      return handleWebhook(deps, request);
    },
  );
}

function serveBare(): void {
  const sampler = new MemorySampler();
  Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(port) },
    async (request) => {
      if (new URL(request.url).pathname === "/memory") return Response.json(sampler.stop());
      await request.arrayBuffer();
      return Response.json({ ok: true });
    },
  );
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text.split("\n")[0].trim();
}

async function measure(mode: string[], seconds: number, dir: string): Promise<ServerRun> {
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...startV8Flags(), new URL(import.meta.url).pathname, ...mode],
    stdout: "piped",
  }).spawn();
  try {
    const port = await firstLine(server.stdout);
    const url = `http://127.0.0.1:${port}/webhook`;
    const signature = await signGithubBody(SECRET, await Deno.readFile(FIXTURE));
    const cpuBefore = cpuSeconds(server.pid);
    const result = await runLoad(url, seconds, dir, signature);
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    const stats = await fetch(`http://127.0.0.1:${port}/stats`);
    const commits = stats.ok ? await stats.json() as GroupCommitStats : undefined;
    if (!stats.ok) await stats.body?.cancel();
    const atPeak = await (await fetch(`http://127.0.0.1:${port}/memory`)).json() as MemorySample;
    return { ...result, peakRssMb: highWaterMiB(server.pid), atPeak, cpuSeconds: cpu, commits };
  } finally {
    server.kill("SIGTERM");
    await server.status;
  }
}

async function countKeys(where: string, prefix: string): Promise<number> {
  const kv = await openStore(loadConfig(storeEnv(where)));
  try {
    let count = 0;
    for await (const _ of kv.list({ prefix: [prefix] })) count++;
    return count;
  } finally {
    await closeStore(kv);
  }
}

/** Mean milliseconds of `fn` over `runs` calls, after a warm-up. */
async function meanMs(runs: number, fn: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(200, runs); i++) await fn();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  return (performance.now() - started) / runs;
}

interface Stages {
  /** A `Request` with the body, read as the ingress reads it. */
  bodyReadMs: number;
  signatureMs: number;
  parseMs: number;
  compressMs: number;
  /** Milliseconds per commit of a batch of this many events. */
  commitMs: Map<number, number>;
  /** `handleWebhook` whole, 16 at a time, with commits that do nothing: all but HTTP and KV. */
  handlerMs: number;
  /** The worker's fan-out per event (no routes), from batch jobs and from single-event jobs. */
  fanOutMs: { batch: number; single: number };
}

/** What one request costs in each stage, and a commit of n events on a KV file. */
async function measureStages(dir: string): Promise<Stages> {
  const body = await Deno.readFile(FIXTURE);
  const headers = new Headers({
    "x-github-event": "pull_request",
    "x-hub-signature-256": await signGithubBody(SECRET, body),
  });
  const signatureMs = await meanMs(2_000, async () => {
    const result = await github.verify({ headers, body, secrets: [SECRET], nowMs: Date.now() });
    if (!result.ok) throw new Error("signature refused");
  });
  const parseMs = await meanMs(2_000, () => JSON.parse(fromUtf8(body)));
  let sequence = 0;
  const newEvent = (): NewEvent => ({
    provider: "github",
    kind: "pull_request",
    action: "opened",
    deliveryId: `stage-${sequence++}`,
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: { "x-github-event": "pull_request" },
    body,
  });
  const compressMs = await meanMs(2_000, () => prepareEvent(newEvent()));
  const kv = await Deno.openKv(join(dir, "stages.kv"));
  const commitMs = new Map<number, number>();
  try {
    for (const size of [1, 8, 16, 32]) {
      // 40 warm-up commits and 40 measured ones, every event new.
      const prepared = await Promise.all(
        Array.from({ length: size * 80 }, () => prepareEvent(newEvent())),
      );
      let cursor = 0;
      commitMs.set(
        size,
        await meanMs(40, async () => {
          // As the group commit writes a batch: each event's writes, one deliver job for all.
          const op = kv.atomic();
          const batch = prepared.slice(cursor, cursor += size);
          for (const event of batch) addEventWrites(op, event);
          addDeliverJob(op, batch.map((event) => event.eventId));
          if (!(await op.commit()).ok) throw new Error("a new event was refused");
        }),
      );
    }
  } finally {
    kv.close();
  }
  const bodyReadMs = await meanMs(2_000, async () => {
    const read = await readBody(signedRequest(body, headers, `read-${sequence++}`), {
      maxBytes: WEBHOOK_BODY_BYTES,
    });
    if (!read.ok) throw new Error("body refused");
  });
  const handlerMs = await measureHandler(dir, body, headers);
  const fanOutMs = await measureFanOut(dir, () => prepareEvent(newEvent()));
  return { bodyReadMs, signatureMs, parseMs, compressMs, commitMs, handlerMs, fanOutMs };
}

/** Events a fan-out measurement routes, in jobs of {@link FAN_OUT_BATCH}. */
const FAN_OUT_EVENTS = 640;
const FAN_OUT_BATCH = 16;

/**
 * Milliseconds of the delivery worker's fan-out per event on a KV file with no routes (load,
 * route, finish), run as batch jobs of 16 events and as single-event jobs.
 */
async function measureFanOut(dir: string, prepare: () => Promise<PreparedEvent>) {
  const [{ createLogger }, { createDeliveryWorker }] = await Promise.all([
    import("../lib/log.ts"),
    import("../lib/delivery/worker.ts"),
  ]);
  const path = join(dir, "fan_out.kv");
  const kv = await Deno.openKv(path);
  const worker = createDeliveryWorker({
    kv,
    config: loadConfig({ KV_PATH: path }),
    log: createLogger({ minLevel: "error" }),
    sweepEveryMs: 0,
  });
  const accept = async () => {
    const ids: string[] = [];
    for (let start = 0; start < FAN_OUT_EVENTS; start += FAN_OUT_BATCH) {
      const batch = await Promise.all(Array.from({ length: FAN_OUT_BATCH }, prepare));
      const op = kv.atomic();
      for (const event of batch) addEventWrites(op, event);
      await op.commit();
      ids.push(...batch.map((event) => event.eventId));
    }
    return ids;
  };
  try {
    const batched = await accept();
    let started = performance.now();
    for (let start = 0; start < batched.length; start += FAN_OUT_BATCH) {
      const eventIds = batched.slice(start, start + FAN_OUT_BATCH);
      await worker.handlers.deliver({ type: "deliver", eventIds });
    }
    const batch = (performance.now() - started) / batched.length;
    const single = await accept();
    started = performance.now();
    for (const eventId of single) await worker.handlers.deliver({ type: "deliver", eventId });
    return { batch, single: (performance.now() - started) / single.length };
  } finally {
    await worker.close();
    kv.close();
  }
}

function signedRequest(body: Uint8Array<ArrayBuffer>, headers: Headers, deliveryId: string) {
  const request = new Request("http://127.0.0.1/webhook", { method: "POST", body, headers });
  request.headers.set("x-github-delivery", deliveryId);
  return request;
}

/** Milliseconds of `handleWebhook` per request, 16 at a time, over a KV whose commits do nothing. */
async function measureHandler(
  dir: string,
  body: Uint8Array<ArrayBuffer>,
  headers: Headers,
): Promise<number> {
  const store = await Deno.openKv(join(dir, "handler.kv"));
  const noCommit = new Proxy(store, {
    get(target, property) {
      if (property === "atomic") {
        return () => {
          const op = target.atomic();
          return Object.assign(op, {
            commit: () => Promise.resolve({ ok: true, versionstamp: "0" } as KvCommitResult),
          });
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const deps = { kv: noCommit, secrets: { github: [SECRET], gitea: [], custom: [] } };
  let sequence = 0;
  try {
    return await meanMs(200, async () => {
      await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
        const response = await handleWebhook(
          deps,
          signedRequest(body, headers, `handler-${sequence++}`),
        );
        if (!response.ok) throw new Error(`handler answered ${response.status}`);
        await response.body?.cancel();
      }));
    }) / CONNECTIONS;
  } finally {
    store.close();
  }
}

function row(name: string, run: ServerRun): string {
  const perSecond = run.ok / run.seconds;
  const cpuUs = run.cpuSeconds * 1e6 / Math.max(1, run.requests);
  const commits = run.commits;
  const batching = commits && commits.batches + commits.single > 0
    ? `${
      ((commits.batchedEvents + commits.single) / (commits.batches + commits.single)).toFixed(1)
    }` +
      ` / ${(commits.commitMs / (commits.batches + commits.single)).toFixed(1)} ms / ` +
      `${(100 * commits.commitMs / 1000 / run.seconds).toFixed(0)} %`
    : "–";
  return `| ${name} | ${run.requests} | ${perSecond.toFixed(0)} | ${run.p50Ms.toFixed(2)} | ` +
    `${run.p99Ms.toFixed(2)} | ${run.peakRssMb.toFixed(0)} | ${cpuUs.toFixed(0)} | ${batching} |`;
}

function serverResults(server: string, run: ServerRun): BenchResult[] {
  const base = { bench: "ingest", connections: CONNECTIONS, seconds: run.seconds };
  return [
    { ...base, metric: `${server}.accepted_per_s`, value: run.ok / run.seconds, unit: "per_s" },
    { ...base, metric: `${server}.p50`, value: run.p50Ms, unit: "ms" },
    { ...base, metric: `${server}.p99`, value: run.p99Ms, unit: "ms" },
    { ...base, metric: `${server}.peak_rss`, value: run.peakRssMb, unit: "mb" },
    {
      ...base,
      metric: `${server}.cpu_per_request`,
      value: run.cpuSeconds * 1e6 / Math.max(1, run.requests),
      unit: "us",
    },
  ];
}

async function main(seconds: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "switchyard-bench-" });
  try {
    const kvPath = join(dir, "ingress.kv");
    const ingress = await measure(["serve-ingest", kvPath], seconds, dir);
    const stored = await countKeys(kvPath, "events");
    const workerPath = join(dir, "worker.kv");
    const withWorker = await measure(["serve-ingest", workerPath, "with-worker"], seconds, dir);
    const backlog = await countKeys(workerPath, "fan_out_pending");
    const bare = await measure(["serve-bare"], seconds, dir);
    const stages = await measureStages(dir);
    const tool = await loadTool();
    const body = await Deno.readFile(FIXTURE);
    const load = Deno.loadavg().map((value) => value.toFixed(1)).join(" / ");
    const commitRows = [...stages.commitMs].map(([size, ms]) =>
      `| commit of ${size} event${size === 1 ? "" : "s"} (KV file) | ${ms.toFixed(2)} ms | ` +
      `${(size * 1000 / ms).toFixed(0)} events/s |`
    );
    console.log([
      "## Ingress",
      "",
      `\`deno run -A bench/ingest_load.ts\`: ${seconds} s per server, ${CONNECTIONS} connections, ` +
      `${tool}, signed ${(body.length / 1000).toFixed(0)} KB \`pull_request\` deliveries with ` +
      `unique \`X-GitHub-Delivery\`, KV file in a temp folder, ${navigator.hardwareConcurrency} ` +
      `cores, load average after the run ${load}.`,
      "",
      "| server | requests | accepted/s | p50 ms | p99 ms | peak RSS MB | server CPU µs/request | " +
      "events per commit / commit time / share of the run spent committing |",
      "|---|---|---|---|---|---|---|---|",
      row("ingress (`handleWebhook`, group commit, KV file)", ingress),
      row("ingress + delivery worker on the same KV file", withWorker),
      row("bare `Deno.serve` (reads body, answers JSON)", bare),
      "",
      `Servers run with the start task's flags (${startV8Flags().join(" ") || "none"}). ` +
      "Each server's memory at its highest RSS (MiB; anonymous pages hold V8's heap, array " +
      "buffers and the allocator's, file pages the binary and the KV file):",
      "",
      ...([["ingress", ingress], ["ingress + worker", withWorker], ["bare", bare]] as const)
        .map(([name, run]) => `- ${name}: ${run.atPeak ? describeSample(run.atPeak) : "–"}`),
      "",
      `Ingress throughput is ${
        (100 * (ingress.ok / ingress.seconds) / (bare.ok / bare.seconds)).toFixed(0)
      } % of the bare server's. Events found in KV afterwards: ${stored} (${ingress.ok} ` +
      `answered 200). With the worker: ${backlog} fan-outs still pending when the load stopped ` +
      `(${
        ((withWorker.ok - backlog) / withWorker.seconds).toFixed(0)
      } events/s accepted and fanned out during the run).`,
      "",
      "| stage (one 28 KB request, one core) | time | rate |",
      "|---|---|---|",
      `| request + body read | ${(stages.bodyReadMs * 1000).toFixed(0)} µs | |`,
      `| signature (HMAC-SHA256) | ${(stages.signatureMs * 1000).toFixed(0)} µs | |`,
      `| JSON parse (decode + parse) | ${(stages.parseMs * 1000).toFixed(0)} µs | |`,
      `| compress + prepare (deflate level 1, ids, keys) | ${
        (stages.compressMs * 1000).toFixed(0)
      } µs | |`,
      `| \`handleWebhook\` whole, 16 at a time, commits doing nothing | ${
        (stages.handlerMs * 1000).toFixed(0)
      } µs | ${(1000 / stages.handlerMs).toFixed(0)} requests/s |`,
      `| worker fan-out per event, no routes: batch jobs of ${FAN_OUT_BATCH} (KV file) | ${
        (stages.fanOutMs.batch * 1000).toFixed(0)
      } µs | ${(1000 / stages.fanOutMs.batch).toFixed(0)} events/s |`,
      `| worker fan-out per event, no routes: single-event jobs (KV file) | ${
        (stages.fanOutMs.single * 1000).toFixed(0)
      } µs | ${(1000 / stages.fanOutMs.single).toFixed(0)} events/s |`,
      ...commitRows,
    ].join("\n"));
    printResults([
      ...serverResults("ingress", ingress),
      ...serverResults("ingress_worker", withWorker),
      ...serverResults("bare", bare),
      { bench: "ingest", metric: "worker_backlog", value: backlog, unit: "events" },
      {
        bench: "ingest",
        metric: "ingress_worker.fanned_out_per_s",
        value: (withWorker.ok - backlog) / withWorker.seconds,
        unit: "per_s",
      },
      { bench: "ingest", metric: "stage.body_read", value: stages.bodyReadMs * 1000, unit: "us" },
      { bench: "ingest", metric: "stage.signature", value: stages.signatureMs * 1000, unit: "us" },
      { bench: "ingest", metric: "stage.handler", value: stages.handlerMs * 1000, unit: "us" },
      {
        bench: "ingest",
        metric: "stage.fan_out_batch",
        value: stages.fanOutMs.batch * 1000,
        unit: "us",
      },
      {
        bench: "ingest",
        metric: "stage.fan_out_single",
        value: stages.fanOutMs.single * 1000,
        unit: "us",
      },
      { bench: "ingest", metric: "stage.parse", value: stages.parseMs * 1000, unit: "us" },
      { bench: "ingest", metric: "stage.compress", value: stages.compressMs * 1000, unit: "us" },
      ...[...stages.commitMs].map(([size, ms]): BenchResult => ({
        bench: "ingest",
        metric: `stage.commit_${size}`,
        value: ms,
        unit: "ms",
      })),
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The ingress alone and with the worker on PostgreSQL (one fresh database each, on this
 * machine), as `main` measures them on a KV file.
 */
async function mainPostgres(seconds: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "switchyard-bench-" });
  const databases: TestPostgres[] = [];
  const database = async () => {
    const made = await benchDatabase();
    if (!made) throw new Error("no PostgreSQL: install Debian's postgresql to measure it");
    databases.push(made);
    return made.url;
  };
  try {
    const ingressUrl = await database();
    const ingress = await measure(["serve-ingest", ingressUrl], seconds, dir);
    const stored = await countKeys(ingressUrl, "events");
    const workerUrl = await database();
    const withWorker = await measure(["serve-ingest", workerUrl, "with-worker"], seconds, dir);
    const backlog = await countKeys(workerUrl, "fan_out_pending");
    const tool = await loadTool();
    const load = Deno.loadavg().map((value) => value.toFixed(1)).join(" / ");
    console.log([
      "## Ingress on PostgreSQL",
      "",
      `\`deno run -A bench/ingest_load.ts ${seconds} --postgres\`: as on the KV file, with the ` +
      `store on PostgreSQL on this machine (a fresh database per server, synchronous_commit ` +
      `on), ${tool}, load average after the run ${load}.`,
      "",
      "| server | requests | accepted/s | p50 ms | p99 ms | peak RSS MB | server CPU µs/request | " +
      "events per commit / commit time / share of the run spent committing |",
      "|---|---|---|---|---|---|---|---|",
      row("ingress (PostgreSQL)", ingress),
      row("ingress + delivery worker (PostgreSQL)", withWorker),
      "",
      `Events found afterwards: ${stored} (${ingress.ok} answered 200). With the worker: ` +
      `${backlog} fan-outs still pending when the load stopped.`,
    ].join("\n"));
    printResults([
      ...serverResults("pg_ingress", ingress),
      ...serverResults("pg_ingress_worker", withWorker),
      { bench: "ingest", metric: "pg_worker_backlog", value: backlog, unit: "events" },
      {
        bench: "ingest",
        metric: "pg_ingress_worker.fanned_out_per_s",
        value: (withWorker.ok - backlog) / withWorker.seconds,
        unit: "per_s",
      },
    ]);
  } finally {
    for (const made of databases) await made.stop().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

const [mode, ...rest] = Deno.args;
if (mode === "serve-ingest") await serveIngress(rest[0], rest[1] === "with-worker");
else if (mode === "serve-bare") serveBare();
else if (Deno.args.includes("--postgres")) await mainPostgres(Number(mode) || 5);
else await main(Number(mode ?? 5) || 5);
