/**
 * Ingress load benchmark: `deno run -A bench/ingest_load.ts [seconds]`.
 *
 * Starts servers on 127.0.0.1, each in its own process: the webhook ingress
 * (`handleWebhook` over a KV file in a temp folder), the same with a queue
 * listener that loads every accepted event from the same file, and a bare
 * `Deno.serve` that reads the body and answers `{ ok: true }`. Each is driven
 * for the given time (default 5 s) with
 * 16 connections of signed 28 KB `pull_request` deliveries, each with its own
 * `X-GitHub-Delivery`. The load comes from `wrk` when it is installed, else from
 * a Deno client process. Prints a Markdown section with the figures.
 */
import { join } from "node:path";
import { handleWebhook } from "../lib/ingest/handle.ts";
import { signGithubBody } from "../lib/providers/github.ts";
import { isDeliverJob, loadEvent } from "../lib/store/events.ts";

const SECRET = "bench-secret";
const CONNECTIONS = 16;
const FIXTURE = new URL(
  "../fixtures/github/pull_request/opened.payload.json",
  import.meta.url,
);
const WRK = "/usr/bin/wrk";

interface LoadResult {
  requests: number;
  ok: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
}

interface ServerRun extends LoadResult {
  peakRssMb: number;
}

async function serveIngress(kvPath: string, withQueue: boolean): Promise<void> {
  const kv = await Deno.openKv(kvPath);
  if (withQueue) {
    kv.listenQueue(async (message) => {
      if (isDeliverJob(message)) await loadEvent(kv, message.eventId);
    });
  }
  const deps = { kv, secrets: { github: [SECRET], gitea: [], custom: [] } };
  Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(port) },
    (request) => handleWebhook(deps, request),
  );
}

function serveBare(): void {
  Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(port) },
    async (request) => {
      await request.arrayBuffer();
      return Response.json({ ok: true });
    },
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** The fallback client: 16 concurrent fetch loops, one JSON line of results. */
async function runClient(url: string, seconds: number, signature: string): Promise<void> {
  const body = await Deno.readFile(FIXTURE);
  const latencies: number[] = [];
  let ok = 0;
  let sequence = 0;
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
          "x-github-delivery": `client-${sequence++}`,
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

function wrkScript(bodyPath: string, signature: string): string {
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
  wrk.headers["X-GitHub-Delivery"] = string.format("wrk-%d-%d", thread_id, sequence)
  return wrk.format()
end
`;
}

function wrkMs(value: string, unit: string): number {
  const factor: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };
  return Number(value) * (factor[unit] ?? NaN);
}

async function runWrk(url: string, seconds: number, dir: string, signature: string) {
  const scriptPath = join(dir, "deliveries.lua");
  await Deno.writeTextFile(scriptPath, wrkScript(FIXTURE.pathname, signature));
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

async function runClientProcess(url: string, seconds: number, signature: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL(import.meta.url).pathname,
      "client",
      url,
      String(seconds),
      signature,
    ],
    stdout: "piped",
  }).output();
  return JSON.parse(new TextDecoder().decode(output.stdout)) as LoadResult;
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

function peakRssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

async function measure(mode: string[], seconds: number, dir: string): Promise<ServerRun> {
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, ...mode],
    stdout: "piped",
  }).spawn();
  try {
    const port = await firstLine(server.stdout);
    const url = `http://127.0.0.1:${port}/webhook`;
    const signature = await signGithubBody(SECRET, await Deno.readFile(FIXTURE));
    const useWrk = await Deno.stat(WRK).then(() => true, () => false);
    const result = useWrk
      ? await runWrk(url, seconds, dir, signature)
      : await runClientProcess(url, seconds, signature);
    return { ...result, peakRssMb: peakRssMb(server.pid) };
  } finally {
    server.kill("SIGTERM");
    await server.status;
  }
}

async function countEvents(kvPath: string): Promise<number> {
  const kv = await Deno.openKv(kvPath);
  try {
    let count = 0;
    for await (const _ of kv.list({ prefix: ["events"] })) count++;
    return count;
  } finally {
    kv.close();
  }
}

function row(name: string, run: ServerRun): string {
  const perSecond = run.ok / run.seconds;
  return `| ${name} | ${run.requests} | ${perSecond.toFixed(0)} | ${run.p50Ms.toFixed(2)} | ` +
    `${run.p99Ms.toFixed(2)} | ${run.peakRssMb.toFixed(0)} |`;
}

async function main(seconds: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "switchyard-bench-" });
  try {
    const kvPath = join(dir, "ingress.kv");
    const ingress = await measure(["serve-ingest", kvPath], seconds, dir);
    const stored = await countEvents(kvPath);
    const withQueue = await measure(
      ["serve-ingest", join(dir, "queue.kv"), "with-queue"],
      seconds,
      dir,
    );
    const bare = await measure(["serve-bare"], seconds, dir);
    const tool = await Deno.stat(WRK).then(() => "wrk 4.1 (2 threads)", () => "Deno fetch client");
    const body = await Deno.readFile(FIXTURE);
    console.log([
      "## Ingress",
      "",
      `\`deno run -A bench/ingest_load.ts\`: ${seconds} s per server, ${CONNECTIONS} connections, ` +
      `${tool}, signed ${(body.length / 1000).toFixed(0)} KB \`pull_request\` deliveries with ` +
      `unique \`X-GitHub-Delivery\`, KV file in a temp folder, ${navigator.hardwareConcurrency} cores.`,
      "",
      "| server | requests | accepted/s | p50 ms | p99 ms | peak RSS MB |",
      "|---|---|---|---|---|---|",
      row("ingress (`handleWebhook`, KV file)", ingress),
      row("ingress + queue listener loading each event", withQueue),
      row("bare `Deno.serve` (reads body, answers JSON)", bare),
      "",
      `Ingress throughput is ${
        (100 * (ingress.ok / ingress.seconds) / (bare.ok / bare.seconds)).toFixed(0)
      } % ` +
      `of the bare server's. Events found in KV afterwards: ${stored} ` +
      `(${ingress.ok} answered 200).`,
    ].join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const [mode, ...rest] = Deno.args;
if (mode === "serve-ingest") await serveIngress(rest[0], rest[1] === "with-queue");
else if (mode === "serve-bare") serveBare();
else if (mode === "client") await runClient(rest[0], Number(rest[1]), rest[2]);
else await main(Number(mode ?? 5) || 5);
