/**
 * Console benchmark: the JavaScript each console page loads (gzipped) and the server's render
 * time of each page, for a group with 200 routes, 1,000 send logs and 1,000 events.
 *
 *   deno task build && deno run -A bench/console_bench.ts [--runs 40]
 *
 * The app runs in this process on an in-memory KV (DEBUG_MODE: a super admin) and pages are
 * requested through its fetch handler, so nothing listens on a port. JavaScript per page is
 * the hydration runtime, the page's island modules and every chunk they import (transitively),
 * each file counted once and gzipped. Render time is from the request to the last byte of the
 * HTML, after warm-up requests; the median and p95 of `--runs` requests are printed, with the
 * size of the HTML. `PAGE=<label prefix>` measures only the pages whose label starts with it.
 */
import type { Kv } from "../lib/store/backend/types.ts";
import { parseArgs } from "node:util";
import { ulid } from "../lib/ulid.ts";
import { createApp, PROJECT_ROOT } from "../lib/app.ts";
import { loadConfig } from "../lib/config.ts";
import { loadAssets } from "../lib/fresh/assets.ts";
import { createLogger } from "../lib/log.ts";
import { recordEventRoutes } from "../lib/store/delivery/event_routes.ts";
import { saveEvent } from "../lib/store/delivery/events.ts";
import { listGroupEntries, putGroup } from "../lib/store/config/groups.ts";
import { countOutcome } from "../lib/store/telemetry/metrics.ts";
import { replaceRoutes } from "../lib/store/config/routes.ts";
import { putSendLog, type SendLog, type SendStatus } from "../lib/store/delivery/send_logs.ts";
import type { FilterNode, Route } from "../lib/types.ts";

const ROUTES = 200;
const LOGS = 1_000;
const EVENTS = 1_000;
const WARM_UP = 5;
const GROUP = "big";
const DAY_MS = 24 * 60 * 60 * 1000;

const { values } = parseArgs({ args: Deno.args, options: { runs: { type: "string" } } });
const runs = Math.min(Math.max(Number(values.runs ?? 40), 5), 500);

/** A route with a tree of 3-6 leaves, as people write them. */
function benchRoute(index: number): Route {
  const label = ["bug", "crash", "docs", "security"][index % 4];
  const leaves: FilterNode[] = [
    { type: "event", value: index % 3 === 0 ? "pull_request.opened" : "issues.*" },
    { type: "field", path: "pull_request.labels[*].name", op: "eq", value: label },
    { type: "field", path: "repository.full_name", op: "startsWith", value: "octo/" },
  ];
  if (index % 2 === 0) {
    leaves.push({
      not: { type: "field", path: "sender.login", op: "in", value: ["dependabot[bot]"] },
    });
  }
  if (index % 5 === 0) {
    leaves.push({ any: [{ type: "field", path: "pull_request.draft", op: "eq", value: false }] });
  }
  return {
    id: `route-${index}`,
    name: `Route ${index}: ${label}`,
    enabled: index % 7 !== 0,
    groupId: GROUP,
    filters: [],
    ast: { all: leaves },
    targets: [{ platform: "discord", channelId: String(100_000_000_000_000_000n + BigInt(index)) }],
  };
}

const STATUSES: SendStatus[] = ["ok", "ok", "ok", "failed", "dead", "retrying"];

async function seed(kv: Kv, now: number) {
  await putGroup(kv, {
    id: GROUP,
    name: "Big group",
    members: [{ userId: "1", login: "owner", role: "owner" }],
  });
  const routes = Array.from({ length: ROUTES }, (_, index) => benchRoute(index));
  const stored = await replaceRoutes(kv, routes);
  if (!stored.ok) throw new Error(`routes not stored: ${JSON.stringify(stored)}`);
  const [{ internalId }] = await listGroupEntries(kv);
  // a second group, so the routes index lists groups to choose from (with one it opens that one)
  await putGroup(kv, {
    id: "small",
    name: "Small group",
    members: [{ userId: "1", login: "owner", role: "owner" }],
  });

  const payload = await Deno.readFile(
    new URL("../static/samples/github/pull_request.opened.json", import.meta.url),
  );
  const saved = await saveEvent(kv, {
    provider: "github",
    kind: "pull_request",
    action: "opened",
    deliveryId: "bench-event",
    scope: { type: "group", groupId: GROUP },
    receivedAt: now,
    headers: {},
    body: payload,
  });
  if (saved.status !== "accepted") throw new Error("the bench event was not accepted");

  const records = Array.from({ length: EVENTS - 1 }, (_, index) => {
    const at = now - (index + 1) * 60_000;
    return {
      internalId,
      record: {
        eventId: ulid(at),
        provider: "github" as const,
        kind: "pull_request",
        action: "opened",
        repository: "octo/app",
        sender: "octocat",
        groupId: GROUP,
        routeIds: index % 3 === 0 ? [] : [`route-${index % ROUTES}`],
        receivedAt: at,
      },
    };
  });
  records.push({
    internalId,
    record: {
      eventId: saved.eventId,
      provider: "github",
      kind: "pull_request",
      action: "opened",
      repository: "octo/app",
      sender: "octocat",
      groupId: GROUP,
      routeIds: ["route-3"],
      receivedAt: now,
    },
  });
  await recordEventRoutes(kv, records, DAY_MS);

  let firstLog = "";
  for (let index = 0; index < LOGS; index++) {
    const at = now - index * 30_000;
    const id = `${ulid(at)}-${(index % 16).toString(16)}`;
    firstLog ||= id;
    const log: SendLog = {
      id,
      deliveryId: `delivery-${index}`,
      eventId: id.slice(0, 26),
      event: "pull_request",
      action: "opened",
      repository: "octo/app",
      provider: "github",
      groupId: GROUP,
      groupInternalId: internalId,
      routeId: `route-${index % ROUTES}`,
      platform: "discord",
      target: { platform: "discord", channelId: "100000000000000000" },
      status: STATUSES[index % STATUSES.length],
      attempts: 1,
      ...(index % 6 === 3 ? { httpStatus: 404, error: "Unknown Channel" } : {}),
      createdAt: at,
      updatedAt: at,
    };
    const op = putSendLog(kv.atomic(), log, null, DAY_MS);
    await countOutcome(op, log, at).commit();
  }
  return { eventId: saved.eventId, logId: firstLog };
}

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** Where a script the page names is on disk: built under `_fresh/`, else in `static/`. */
function fileOf(path: string): string {
  return path.startsWith("/_fresh/") ? `${PROJECT_ROOT}${path}` : `${PROJECT_ROOT}/static${path}`;
}

/**
 * The JS files a page loads: its classic scripts (the theme script), the hydration runtime, its
 * islands, and their chunks, transitively.
 */
async function pageScripts(html: string): Promise<string[]> {
  const classic = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map(([, src]) => src);
  const data = /<script type="application\/json" id="[^"]+">([\s\S]*?)<\/script>/.exec(html);
  const client = /<script type="module" src="([^"]+)">/.exec(html);
  if (!data || !client) return classic;
  const modules = Object.values(JSON.parse(data[1]).modules as Record<string, string>);
  const seen = new Set<string>(classic);
  const queue = [client[1], ...modules];
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const text = await Deno.readTextFile(fileOf(path));
    for (const [, chunk] of text.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) {
      queue.push(`/_fresh/${chunk}`);
    }
  }
  return [...seen];
}

async function jsGzipped(files: readonly string[]): Promise<number> {
  let total = 0;
  for (const file of files) total += await gzipSize(await Deno.readFile(fileOf(file)));
  return total;
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

const assets = await loadAssets(PROJECT_ROOT);
if (!assets.client) throw new Error("assets are not built: run `deno task build` first");
const config = loadConfig({ KV_PATH: ":memory:", DEBUG_MODE: "true" });
const kv = await Deno.openKv(":memory:");
const log = createLogger({ minLevel: "error", sink: () => {} });
const app = createApp({ kv, config, log, assets });
const { eventId, logId } = await seed(kv, Date.now());

const ONLY = Deno.env.get("PAGE");
const ALL_PAGES: [label: string, path: string][] = [
  ["overview (1,000 logs counted)", "/admin"],
  ["groups", "/admin/groups"],
  ["group", `/admin/groups/${GROUP}`],
  ["routes index (2 groups)", "/admin/routes"],
  ["route list (200 routes)", `/admin/routes/${GROUP}`],
  ["route editor (200 routes)", `/admin/routes/${GROUP}/edit/route-3`],
  ["new route (200 routes)", `/admin/routes/${GROUP}/new`],
  ["events (1,000 events)", `/admin/events/${GROUP}`],
  ["event explained (200 routes)", `/admin/events/${GROUP}/${eventId}`],
  ["logs (1,000 logs)", "/admin/logs"],
  ["logs, failed only (1,000 logs)", "/admin/logs?status=failed"],
  ["log", `/admin/logs/${logId}`],
  ["audit", "/admin/audit"],
];

const PAGES = ALL_PAGES.filter(([label]) => !ONLY || label.startsWith(ONLY));
console.log(`| page | JS gzipped | HTML | render p50 | render p95 |`);
console.log(`| --- | --- | --- | --- | --- |`);
for (const [label, path] of PAGES) {
  const times: number[] = [];
  let html = "";
  for (let run = 0; run < WARM_UP + runs; run++) {
    const started = performance.now();
    const res = await app.fetch(new Request(`http://localhost${path}`));
    html = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    if (run >= WARM_UP) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const js = await jsGzipped(await pageScripts(html));
  console.log(
    `| ${label} | ${(js / 1024).toFixed(1)} KB | ${(html.length / 1024).toFixed(0)} KB | ${
      percentile(times, 0.5).toFixed(1)
    } ms | ${percentile(times, 0.95).toFixed(1)} ms |`,
  );
}
kv.close();
