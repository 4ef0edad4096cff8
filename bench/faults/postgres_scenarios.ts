/**
 * The fault suite's PostgreSQL scenarios: three `main.ts` processes that share nothing but one
 * PostgreSQL database (each has its own KV_PATH, unused once DATABASE_URL is set), fed signed
 * webhooks over HTTP (./webhook_load.ts) and delivering to the fake platforms with Telegram's
 * and Discord's real limits enforced:
 *
 * - kill -9 of one instance every 3 s (a new one started in its place) while the burst is
 *   accepted and after it;
 * - the database stopped crash-like (`pg_ctl -m immediate stop`) mid-burst and started again
 *   3 s later: instances reconnect by themselves, events refused meanwhile answer 503 with
 *   Retry-After and are sent again;
 * - one instance cut off from the database (a TCP proxy between it and PostgreSQL drops every
 *   connection and refuses new ones) for 30 s: the others go on delivering and take over the jobs
 *   and lanes it had leased once the leases run out.
 *
 * Each gives a row: what the fault table shows (../harness.ts) plus 503 refusals, events never
 * acknowledged and the times to recover.
 */
import { join } from "node:path";
import type { Kv } from "../../lib/store/backend/types.ts";
import { closeStore, openStore } from "../../lib/store/kv.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import type { Route, Target } from "../../lib/types.ts";
import { type FakeChat, startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { startTcpProxy, type TcpProxy } from "../../testing/tcp_proxy.ts";
import { type AppInstance, startAppInstance } from "./app_instance.ts";
import { drain, type FaultRow, rowOf, titleOf } from "./harness.ts";
import { type FaultCluster, startFaultCluster } from "./pg_cluster.ts";
import { type LoadOutcome, sendLoad } from "./webhook_load.ts";

/** How large the scenarios are. */
export interface PostgresRunOptions {
  /** Events per scenario (2,000 by default; fewer with --quick). */
  events: number;
  /** Events sent per second (the burst lasts events / rate seconds). */
  ratePerSecond: number;
  /** Kills at least, in the kill -9 scenario. */
  kills: number;
  /** How long the cut-off instance is kept from the database. */
  cutMs: number;
  /** Runs only the scenario of this name (`kill`, `restart` or `cut`). */
  only?: string;
}

/** A row of the PostgreSQL table. */
export interface PostgresRow extends FaultRow {
  /** Events answered 503 at least once, then acknowledged when sent again / 503 answers. */
  refused: string;
  /** Events never acknowledged (not expected), with other error statuses. */
  unacknowledged: string;
  /**
   * Time to recover: until the instance started after a kill is ready; after the database
   * restart or the cut, until every affected instance acknowledged an event again.
   */
  recoveryMs: number | null;
  /** Longest time one target waited between two of its messages. */
  longestTargetPauseMs: number;
}

const SLOTS = 3;
const SECRET = "faults-custom-secret";
/** 50 Discord channels and 50 Telegram chats: 20 messages each from 2,000 events. */
const TARGETS: Target[] = [
  ...Array.from({ length: 50 }, (_, i): Target => ({
    platform: "discord",
    channelId: String(7000 + i),
  })),
  ...Array.from({ length: 50 }, (_, i): Target => ({
    platform: "telegram",
    chatId: String(77000 + i),
  })),
];
const DRAIN_LIMIT_MS = 300_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function routes(): Route[] {
  return TARGETS.map((target, i) => ({
    id: `t${i}`,
    name: `t${i}`,
    enabled: true,
    groupId: "faults",
    filters: [{ type: "field", path: "lane", op: "eq", value: `t${i}` }],
    fallback: false,
    targets: [target],
  }));
}

/** What a scenario's fault gets to work with. */
interface Stage {
  slots: AppInstance[];
  /** Kills nothing; starts a new instance in `slot` (the caller stops the old one). */
  replace(slot: number): AppInstance;
  cluster: FaultCluster;
  /** The proxy between slot 0 and the database. */
  proxy: TcpProxy;
  /** Resolves when the sender has every outcome. */
  loaded: Promise<LoadOutcome>;
}

/**
 * The fault of a scenario: runs beside the load and returns its name and how to read its time to
 * recover from the sender's outcome (null when it never recovered).
 */
type Fault = (stage: Stage) => Promise<{
  name: string;
  recoveryMs: (outcome: LoadOutcome) => number | null;
}>;

interface Scenario {
  key: string;
  fault: Fault;
}

/** Fake platforms enforcing the real limits (Discord: 5 per 5 s per channel, 50/s). */
function fakes(): [FakeChat, FakeChat] {
  return [
    startFakeDiscord({
      bucketLimit: 5,
      bucketWindowMs: 5_000,
      globalMax: 50,
      globalWindowMs: 1_000,
    }),
    startFakeTelegram({
      chatIntervalMs: 1_000,
      groupMax: 20,
      groupWindowMs: 60_000,
      globalMax: 30,
      globalWindowMs: 1_000,
      toleranceMs: 50,
    }),
  ];
}

/** Delivery id → event id of every stored event. */
async function eventIdsByDelivery(kv: Kv): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for await (const entry of kv.list<{ deliveryId?: string }>({ prefix: ["events"] })) {
    const deliveryId = entry.value?.deliveryId;
    if (entry.key.length === 2 && typeof deliveryId === "string") {
      ids.set(deliveryId, String(entry.key[1]));
    }
  }
  return ids;
}

/** The longest time between two messages to one chat. */
function longestPause(fakes: FakeChat[]): number {
  let longest = 0;
  for (const fake of fakes) {
    const last = new Map<string, number>();
    for (const message of fake.received) {
      const before = last.get(message.chat);
      if (before !== undefined) longest = Math.max(longest, message.at - before);
      last.set(message.chat, message.at);
    }
  }
  return longest;
}

/**
 * Whether every chat received its messages in the order they were acknowledged: no message
 * arrives after one whose event was sent only once the first was acknowledged. (Events whose
 * requests overlapped, on different instances, may go either way; the order of event ids, which
 * each instance draws when it receives a request, is not their acceptance order.)
 */
function inAcknowledgedOrder(fakes: FakeChat[], outcome: LoadOutcome): boolean {
  for (const fake of fakes) {
    /** By chat: the latest send time of the requests whose messages arrived so far. */
    const latestSent = new Map<string, number>();
    for (const message of fake.received) {
      const title = titleOf(message.body);
      const times = outcome.timesOf.get(Number(title.replace("Event ", "")));
      if (!title.startsWith("Event ") || !times) continue;
      const before = latestSent.get(message.chat) ?? -Infinity;
      if (times.ackAt < before) return false;
      latestSent.set(message.chat, Math.max(before, times.sentAt));
    }
  }
  return true;
}

/**
 * Time from `endedAt` until each of `slots` acknowledged an event again (the longest); null when
 * one never did.
 */
function ingestBack(outcome: LoadOutcome, endedAt: number, slots: number[]): number | null {
  let longest = 0;
  for (const slot of slots) {
    const next = outcome.acksBySlot[slot].find((at) => at >= endedAt);
    if (next === undefined) return null;
    longest = Math.max(longest, next - endedAt);
  }
  return longest;
}

async function runScenario(
  cluster: FaultCluster,
  scenario: Scenario,
  options: PostgresRunOptions,
): Promise<PostgresRow> {
  const runId = `${scenario.key}_${crypto.randomUUID().slice(0, 8)}`;
  const databaseUrl = await cluster.createDatabase(`faults_${runId}`);
  const kv = await openStore({ kvPath: undefined, databaseUrl });
  const [discord, telegram] = fakes();
  const proxy = startTcpProxy(cluster.port);
  const viaProxy = new URL(databaseUrl);
  viaProxy.port = String(proxy.port);
  const dir = await Deno.makeTempDir({ prefix: "switchyard-faults-pg-" });
  await putGroup(kv, { id: "faults", name: "faults", members: [] });
  await replaceRoutes(kv, routes());
  let started = 0;
  const replace = (slot: number) =>
    startAppInstance({
      DATABASE_URL: slot === 0 ? viaProxy.href : databaseUrl,
      KV_PATH: join(dir, `instance-${++started}.kv`),
      CUSTOM_WEBHOOK_SECRET: SECRET,
      DISCORD_BOT_TOKEN: "faults",
      DISCORD_API_URL: discord.url,
      TELEGRAM_BOT_TOKEN: "1:faults",
      TELEGRAM_API_URL: telegram.url,
      LOG_LEVEL: "warn",
    });
  const slots = Array.from({ length: SLOTS }, (_, slot) => replace(slot));
  try {
    await Promise.all(slots.map((slot) => slot.ready));
    const startedAt = Date.now();
    const loaded = sendLoad(async (slot) => {
      for (;;) {
        const instance = slots[slot];
        try {
          await instance.ready;
          return instance.url;
        } catch {
          await sleep(100); // killed before it was ready: its replacement takes the slot
        }
      }
    }, {
      events: options.events,
      slots: SLOTS,
      ratePerSecond: options.ratePerSecond,
      secret: SECRET,
      runId,
      fieldsOf: (n) => ({ lane: `t${n % TARGETS.length}` }),
      patienceMs: 120_000,
    });
    const fault = await scenario.fault({ slots, replace, cluster, proxy, loaded });
    const outcome = await loaded;
    const ids = await eventIdsByDelivery(kv);
    const accepted = new Map<string, number>();
    for (const [deliveryId, n] of outcome.acknowledged) {
      const eventId = ids.get(deliveryId);
      // An acknowledged event missing from the store maps to an id no chat shows: counted lost.
      accepted.set(eventId ?? `missing-${deliveryId}`, n);
    }
    const drainMs = await drain(
      kv,
      accepted.size,
      startedAt,
      DRAIN_LIMIT_MS,
      (id) => accepted.has(id),
    );
    await sleep(2_000); // a late second send would show now
    const row = await rowOf(
      fault.name,
      kv,
      [discord, telegram],
      accepted,
      1,
      `${discord.rateLimited()} / ${telegram.rateLimited()}`,
      drainMs,
    );
    const others = [...outcome.otherErrors].map(([status, count]) => `${count} × ${status}`);
    return {
      ...row,
      inOrder: inAcknowledgedOrder([discord, telegram], outcome),
      refused: `${outcome.refusedThenAcknowledged} / ${outcome.refusals}`,
      unacknowledged: [String(outcome.unacknowledged), ...others].join(", "),
      recoveryMs: fault.recoveryMs(outcome),
      longestTargetPauseMs: longestPause([discord, telegram]),
    };
  } finally {
    await Promise.all(slots.map((slot) => slot.stop("SIGKILL")));
    proxy.close();
    await closeStore(kv);
    await discord[Symbol.asyncDispose]();
    await telegram[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Kill -9 of a random running instance every 3 s, while the burst lasts and `kills` times at
 * least. Its time to recover: from a kill until the instance started in its place is ready (the
 * longest).
 */
function killEvery3s(kills: number): Fault {
  return async ({ slots, replace, loaded }) => {
    let loading = true;
    loaded.finally(() => loading = false);
    const running = new Set<AppInstance>();
    const watch = (instance: AppInstance) =>
      instance.ready.then(() => running.add(instance), () => {});
    slots.forEach(watch);
    const restarts: Promise<number>[] = [];
    while (loading || restarts.length < kills) {
      await sleep(3_000);
      const candidates = slots.flatMap((instance, slot) => running.has(instance) ? [slot] : []);
      if (candidates.length === 0) continue;
      const victim = candidates[Math.floor(Math.random() * candidates.length)];
      const dead = slots[victim];
      const killedAt = Date.now();
      slots[victim] = replace(victim);
      watch(slots[victim]);
      restarts.push(slots[victim].ready.then(() => Date.now() - killedAt, () => Infinity));
      running.delete(dead);
      await dead.stop("SIGKILL");
    }
    const longest = Math.max(...await Promise.all(restarts));
    return {
      name: `kill -9 of one of 3 instances every 3 s (${restarts.length} kills)`,
      recoveryMs: () => Number.isFinite(longest) ? longest : null,
    };
  };
}

/** PostgreSQL stopped crash-like 3 s into the burst, started again 3 s later. */
const restartDatabase: Fault = async ({ cluster }) => {
  await sleep(3_000);
  await cluster.crash();
  await sleep(3_000);
  await cluster.start();
  const endedAt = Date.now();
  return {
    name: "PostgreSQL stopped with -m immediate 3 s into the burst, down 3 s",
    recoveryMs: (outcome) => ingestBack(outcome, endedAt, [0, 1, 2]),
  };
};

/** Instance 0 cut off from the database 2 s into the burst, for `cutMs`. */
function cutOff(cutMs: number): Fault {
  return async ({ proxy }) => {
    await sleep(2_000);
    proxy.cut();
    await sleep(cutMs);
    proxy.restore();
    const endedAt = Date.now();
    return {
      name: `one instance cut off from PostgreSQL for ${cutMs / 1000} s`,
      recoveryMs: (outcome) => ingestBack(outcome, endedAt, [0]),
    };
  };
}

/** Runs the three scenarios on a cluster of their own; null when PostgreSQL is not installed. */
export async function postgresScenarios(
  options: PostgresRunOptions,
  onRow: (row: PostgresRow) => void,
): Promise<PostgresRow[] | null> {
  const cluster = await startFaultCluster();
  if (!cluster) return null;
  const scenarios: Scenario[] = [
    { key: "kill", fault: killEvery3s(options.kills) },
    { key: "restart", fault: restartDatabase },
    { key: "cut", fault: cutOff(options.cutMs) },
  ];
  const rows: PostgresRow[] = [];
  try {
    for (const scenario of scenarios.filter((s) => !options.only || s.key === options.only)) {
      const row = await runScenario(cluster, scenario, options);
      rows.push(row);
      onRow(row);
    }
  } finally {
    await cluster.close();
  }
  return rows;
}

const seconds = (ms: number | null) => ms === null ? "never" : `${(ms / 1000).toFixed(1)} s`;

/** The PostgreSQL table, as Markdown. */
export function postgresTableOf(rows: PostgresRow[]): string {
  const head =
    "| scenario | events acknowledged | delivered | lost | duplicates (Discord / Telegram) | order kept | refused with 503, then acknowledged / 503 answers | never acknowledged | 429s received (Discord / Telegram) | time to drain | time to recover | longest pause of a target |\n" +
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  const body = rows.map((row) =>
    `| ${row.scenario} | ${row.acknowledged} | ${row.delivered} | ${row.lost} | ${row.duplicates} | ${
      row.inOrder ? "yes" : "no"
    } | ${row.refused} | ${row.unacknowledged} | ${row.rateLimited} | ${
      row.drainMs === null ? "not drained" : seconds(row.drainMs)
    } | ${seconds(row.recoveryMs)} | ${seconds(row.longestTargetPauseMs)} |`
  ).join("\n");
  const reasons = rows.filter((row) => row.reasons.length > 0).map((row) =>
    `- ${row.scenario}: ${row.reasons.join("; ")}`
  ).join("\n");
  return `${head}${body}\n\nDead letters:\n\n${reasons || "- none"}\n`;
}
