/**
 * The fault suite: delivery under faults, on local fakes, with figures.
 *
 *   deno task faults [--save] [--skip-kill] [--skip-postgres] [--postgres-only] [--quick]
 *
 * Scenarios: kill -9 of one of three instances every 3 s during a 2,000-event
 * burst to 20 targets and while it is delivered (8 kills at least); platform storms (half the calls answered 5xx, 429
 * bursts with and without a wait to honour, a platform that hangs); a tenth of
 * the store's atomic commits failing; the worker's clock jumping 10 minutes
 * ahead. Each prints a row: events acknowledged, messages delivered,
 * duplicates, lost, dead letters (with their reasons), 429s received, time to
 * drain. Then the PostgreSQL scenarios (./postgres_scenarios.ts: three `main.ts` processes on
 * one database; kill -9, a crash-like database restart, one instance cut off from the database
 * for 30 s), skipped with a warning when PostgreSQL is not installed; `--quick` runs them with
 * 300 events (25/s instead of 50/s), 3 kills and a 10 s cut. `--save` writes the tables into docs/reliability.md.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { loadConfig } from "../../lib/config.ts";
import { createDeliveryWorker } from "../../lib/delivery/worker.ts";
import { utf8 } from "../../lib/encoding.ts";
import { createLogger } from "../../lib/log.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { startQueueWorker } from "../../lib/delivery/job_worker.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import type { Route, Target } from "../../lib/types.ts";
import { DiscordRateLimiter } from "../../lib/discord/rate_limit.ts";
import { TelegramPacer } from "../../lib/telegram/pacer.ts";
import { scaledTelegramLimits } from "../../testing/delivery_instance.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { type InstanceProcess, startInstance } from "../../testing/instances.ts";
import {
  drain,
  type FaultAnswer,
  type FaultRow,
  rowOf,
  startFaultProxy,
  tableOf,
} from "./harness.ts";
import { failCommits } from "./kv_faults.ts";
import {
  type PostgresRunOptions,
  postgresScenarios,
  postgresTableOf,
} from "./postgres_scenarios.ts";

const BACKOFF_MS = [100, 200, 400, 800, 1_600];

/** Every limit window is divided by this, on the fakes and in the limiters alike. */
const SCALE = 10;

function route(id: string, targets: Target[], lane?: string): Route {
  return {
    id,
    name: id,
    enabled: true,
    groupId: "faults",
    filters: lane === undefined ? [] : [{ type: "field", path: "lane", op: "eq", value: lane }],
    fallback: lane === undefined,
    targets,
  };
}

async function storeRoutes(kv: Kv, routes: Route[]) {
  await putGroup(kv, { id: "faults", name: "faults", members: [] });
  await replaceRoutes(kv, routes);
}

function customEvent(title: string, fields: Record<string, unknown> = {}) {
  return {
    provider: "custom" as const,
    kind: "custom",
    scope: { type: "global" as const },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ ...fields, message: { title } })),
  };
}

interface InProcessScenario {
  name: string;
  events: number;
  discord?: (request: Request, sinceStartMs: number) => FaultAnswer;
  telegram?: (request: Request, sinceStartMs: number) => FaultAnswer;
  /** Share of atomic commits that fail while the scenario runs. */
  commitFailures?: number;
  /** The worker's clock jumps this far ahead 1 s into the run. */
  clockJumpMs?: number;
  limitMs: number;
}

const TARGETS: Target[] = [
  { platform: "discord", channelId: "801" },
  { platform: "discord", channelId: "802" },
  { platform: "telegram", chatId: "8801" },
  { platform: "telegram", chatId: "8802" },
];

/** One delivery worker in this process against fakes behind a fault proxy. */
async function inProcess(scenario: InProcessScenario): Promise<FaultRow> {
  const dir = await Deno.makeTempDir({ prefix: "switchyard-faults-" });
  const kv = await Deno.openKv(join(dir, "faults.kv"));
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  let startedAt = Date.now();
  const pass = () => "pass" as const;
  await using discordProxy = startFaultProxy(
    discord.url,
    (req) => (scenario.discord ?? pass)(req, Date.now() - startedAt),
  );
  await using telegramProxy = startFaultProxy(
    telegram.url,
    (req) => (scenario.telegram ?? pass)(req, Date.now() - startedAt),
  );
  const config = loadConfig({
    KV_PATH: ":memory:",
    DISCORD_BOT_TOKEN: "faults",
    DISCORD_API_URL: discordProxy.url,
    TELEGRAM_BOT_TOKEN: "1:faults",
    TELEGRAM_API_URL: telegramProxy.url,
  });
  await storeRoutes(kv, [route("all", TARGETS)]);
  let offset = 0;
  const log = createLogger({ minLevel: "error", sink: () => {} });
  const worker = createDeliveryWorker({
    kv,
    config,
    log,
    limiters: {
      discord: new DiscordRateLimiter({ global: { max: 50, windowMs: 1_000 / SCALE } }),
      telegram: new TelegramPacer({ limits: scaledTelegramLimits(SCALE) }),
    },
    maxSleepMs: 1_000 / SCALE,
    backoffMs: BACKOFF_MS,
    now: () => Date.now() + offset,
    sweepEveryMs: 1_000,
    stallMs: 2_000,
  });
  const queue = startQueueWorker(kv, worker.handlers, log);
  const restore = scenario.commitFailures ? failCommits(scenario.commitFailures) : () => {};
  const jump = scenario.clockJumpMs
    ? setTimeout(() => offset = scenario.clockJumpMs!, 1_000)
    : undefined;
  startedAt = Date.now();
  const accepted = new Map<string, number>();
  for (let index = 0; index < scenario.events; index++) {
    try {
      const outcome = await saveEvent(kv, customEvent(`Event ${index}`));
      if (outcome.status === "accepted") accepted.set(outcome.eventId, index);
    } catch {
      // Not acknowledged: the ingress would have answered 5xx and the sender would retry.
    }
  }
  const drainMs = await drain(kv, accepted.size * TARGETS.length, startedAt, scenario.limitMs);
  restore();
  clearTimeout(jump);
  const row = await rowOf(
    scenario.name,
    kv,
    [discord, telegram],
    accepted,
    TARGETS.length,
    `${discordProxy.rateLimited()} / ${telegramProxy.rateLimited()}`,
    drainMs,
  );
  await queue.drain(2_000);
  await worker.close();
  kv.close();
  await Deno.remove(dir, { recursive: true });
  return row;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

const BURST_MS = 2_000;

const SCENARIOS: InProcessScenario[] = [
  {
    name: "50 % of calls answered 5xx",
    events: 100,
    discord: () =>
      Math.random() < 0.5 ? json(500, { message: "500: Internal Server Error" }) : "pass",
    telegram: () =>
      Math.random() < 0.5
        ? json(502, { ok: false, error_code: 502, description: "Bad Gateway" })
        : "pass",
    limitMs: 120_000,
  },
  {
    name: "429 burst (2 s) with a wait to honour",
    events: 100,
    discord: (_req, since) =>
      since < BURST_MS
        ? json(429, { message: "You are being rate limited.", retry_after: 0.3, global: false }, {
          "retry-after": "1",
          "x-ratelimit-limit": "5",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset-after": "0.3",
        })
        : "pass",
    telegram: (_req, since) =>
      since < BURST_MS
        ? json(429, {
          ok: false,
          error_code: 429,
          description: "Too Many Requests: retry after 1",
          parameters: { retry_after: 0.3 },
        })
        : "pass",
    limitMs: 120_000,
  },
  {
    name: "429 burst (2 s) without a wait",
    events: 100,
    discord: (_req, since) =>
      since < BURST_MS ? json(429, { message: "You are being rate limited." }) : "pass",
    telegram: (_req, since) =>
      since < BURST_MS
        ? json(429, { ok: false, error_code: 429, description: "Too Many Requests" })
        : "pass",
    limitMs: 120_000,
  },
  {
    name: "platform hangs for 3 s (calls time out)",
    events: 100,
    discord: (_req, since) => since < 3_000 ? "hang" : "pass",
    telegram: (_req, since) => since < 3_000 ? "hang" : "pass",
    limitMs: 120_000,
  },
  {
    name: "10 % of KV commits fail",
    events: 100,
    commitFailures: 0.1,
    limitMs: 120_000,
  },
  {
    name: "worker clock jumps 10 min ahead",
    events: 100,
    clockJumpMs: 10 * 60 * 1000,
    limitMs: 120_000,
  },
];

/** How many instances are killed at least (the kills go on while the burst lasts). */
const KILLS = 8;

/**
 * Kill -9 of one of three instances every 3 s during a 2,000-event burst to 20
 * targets, and after it while its messages go out, at least {@link KILLS} times.
 */
async function killNine(): Promise<FaultRow> {
  const scale = SCALE;
  const dir = await Deno.makeTempDir({ prefix: "switchyard-faults-kill-" });
  const kvPath = join(dir, "shared.kv");
  const kv = await Deno.openKv(kvPath);
  await using discord = startFakeDiscord({
    bucketLimit: 5,
    bucketWindowMs: 5_000 / scale,
    globalMax: 50,
    globalWindowMs: 1_000 / scale,
  });
  await using telegram = startFakeTelegram({
    chatIntervalMs: 1_000 / scale,
    groupMax: 20,
    groupWindowMs: 60_000 / scale,
    globalMax: 30,
    globalWindowMs: 1_000 / scale,
    toleranceMs: 20,
  });
  const targets: Target[] = [
    ...Array.from({ length: 10 }, (_, i): Target => ({
      platform: "discord",
      channelId: String(900 + i),
    })),
    ...Array.from({ length: 10 }, (_, i): Target => ({
      platform: "telegram",
      chatId: String(9100 + i),
    })),
  ];
  await storeRoutes(kv, targets.map((target, i) => route(`t${i}`, [target], `t${i}`)));
  const start = () =>
    startInstance({ kvPath, discordUrl: discord.url, telegramUrl: telegram.url, scale });
  const slots: InstanceProcess[] = [start(), start(), start()];
  await Promise.all(slots.map((slot) => slot.ready));
  const startedAt = Date.now();
  let bursting = true;
  let kills = 0;
  const killer = (async () => {
    while (bursting || kills < KILLS) {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const victim = Math.floor(Math.random() * slots.length);
      const dead = slots[victim];
      slots[victim] = start();
      await dead.stop("SIGKILL");
      kills++;
    }
  })();
  const accepted = new Map<string, number>();
  const events = 2_000;
  await Promise.all(slots.map(async (_, lane) => {
    for (let index = lane; index < events; index += slots.length) {
      const instance = slots[lane];
      await instance.ready.catch(() => {});
      const eventId = await instance.accept(`Event ${index}`, { lane: `t${index % 20}` });
      if (eventId !== "" && eventId !== "-") accepted.set(eventId, index);
    }
  }));
  bursting = false;
  await killer;
  const drainMs = await drain(kv, accepted.size, startedAt, 180_000);
  const row = await rowOf(
    `kill -9 of one of 3 instances every 3 s (${kills} kills)`,
    kv,
    [discord, telegram],
    accepted,
    1,
    `${discord.rateLimited()} / ${telegram.rateLimited()}`,
    drainMs,
  );
  await Promise.all(slots.map((slot) => slot.stop()));
  kv.close();
  await Deno.remove(dir, { recursive: true });
  return row;
}

/** PostgreSQL scenario sizes: the full run, and `--quick` for a small machine or a first look. */
const POSTGRES_FULL: PostgresRunOptions = {
  events: 2_000,
  ratePerSecond: 50,
  kills: 8,
  cutMs: 30_000,
};
const POSTGRES_QUICK: PostgresRunOptions = {
  events: 300,
  ratePerSecond: 25,
  kills: 3,
  cutMs: 10_000,
};

async function main() {
  const { values } = parseArgs({
    options: {
      save: { type: "boolean", default: false },
      "skip-kill": { type: "boolean", default: false },
      "skip-postgres": { type: "boolean", default: false },
      "postgres-only": { type: "boolean", default: false },
      quick: { type: "boolean", default: false },
    },
  });
  const kvTables = values["postgres-only"] ? null : await kvScenarios(!values["skip-kill"]);
  let postgresTable: string | null = null;
  if (!values["skip-postgres"]) {
    const rows = await postgresScenarios(
      values.quick ? POSTGRES_QUICK : POSTGRES_FULL,
      (row) => console.log(postgresTableOf([row])),
    );
    if (rows) {
      postgresTable = postgresTableOf(rows);
      console.log(postgresTable);
    } else {
      console.warn("PostgreSQL is not installed (/usr/lib/postgresql): its scenarios were SKIPPED");
    }
  }
  if (!values.save) return;
  if (values.quick) throw new Error("--quick figures are not saved: run without --quick");
  const stamp = `${new Date().toISOString().slice(0, 10)}, Deno ${Deno.version.deno}`;
  if (kvTables) await saveTable(KV_MARKERS, `Run of ${stamp}:\n\n${kvTables}`);
  if (postgresTable) await saveTable(POSTGRES_MARKERS, `Run of ${stamp}:\n\n${postgresTable}`);
}

/** The Deno KV scenarios (kill -9 of instances on one file, then the in-process ones). */
async function kvScenarios(withKill: boolean): Promise<string> {
  const rows: FaultRow[] = [];
  if (withKill) {
    rows.push(await killNine());
    console.log(tableOf(rows));
  }
  for (const scenario of SCENARIOS) {
    rows.push(await inProcess(scenario));
    console.log(tableOf(rows.slice(-1)));
  }
  const table = tableOf(rows);
  console.log(table);
  return table;
}

const DOC = new URL("../../docs/reliability.md", import.meta.url);
const KV_MARKERS = ["<!-- faults:begin -->", "<!-- faults:end -->"] as const;
const POSTGRES_MARKERS = [
  "<!-- faults-postgres:begin -->",
  "<!-- faults-postgres:end -->",
] as const;

/** Replaces what lies between `markers` in docs/reliability.md with `text`. */
async function saveTable(markers: readonly [string, string], text: string) {
  const [begin, finish] = markers;
  const doc = await Deno.readTextFile(DOC);
  const start = doc.indexOf(begin);
  const end = doc.indexOf(finish);
  if (start === -1 || end === -1) throw new Error(`docs/reliability.md has no ${begin} marker`);
  await Deno.writeTextFile(
    DOC,
    `${doc.slice(0, start + begin.length)}\n\n${text}\n${doc.slice(end)}`,
  );
}

if (import.meta.main) await main();
