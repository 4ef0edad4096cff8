/**
 * Delivery benchmark: 1,000 custom events fanned out to 10 Discord channels
 * and 5 Telegram group chats (15,000 messages) on fake servers that enforce
 * the platforms' limits and advertise Discord's bucket headers. Time is scaled
 * down (`--scale`, default 100): every limit window is divided by it, on the
 * fakes and in the worker's limiters alike. The fakes run in their own process
 * (this script with `--fakes`), so their clock is not slowed by the delivery
 * worker's load and the peak RSS measured is the delivery worker's alone. The
 * worker runs with the V8 flags `deno task start` gives the server (the script
 * runs itself again with them), so its memory is the product's.
 *
 *   deno run -A bench/delivery_bench.ts [--events 1000] [--scale 100]
 *   deno run -A bench/delivery_bench.ts --throughput [--backlog | --lanes] [--events 1000]
 *     [--postgres]
 *
 * Prints the elapsed time against the minimum the limits allow, the 429s the
 * fakes answered, whether every chat got its messages once and in order, and
 * the peak resident memory. `--throughput` sends each event to one Discord
 * channel and one Telegram chat on fakes that never rate-limit, with limiters
 * that never wait: messages per second and events per second end to end. With
 * `--backlog` the events are all accepted before the delivery worker starts, so
 * the figures are the worker's own (fan-out and sending) rather than bounded by
 * how fast this script accepts events. With `--lanes` the units are put in
 * their lanes directly (no events, no fan-out) before the worker starts: the
 * lanes' sending path alone. With `--postgres` the store is a fresh PostgreSQL database on this
 * machine (bench/_load.ts) instead of a KV file. The last lines are one JSON object per figure:
 * `{"bench","metric","value","unit"}`.
 */
import type { Kv } from "../lib/store/backend/types.ts";
import { parseArgs } from "node:util";
import { createDeliveryWorker } from "../lib/delivery/worker.ts";
import { DiscordRateLimiter } from "../lib/discord/rate_limit.ts";
import { utf8 } from "../lib/encoding.ts";
import { createLogger } from "../lib/log.ts";
import { loadConfig } from "../lib/config.ts";
import { startQueueWorker } from "../lib/delivery/job_worker.ts";
import { saveEventGrouped } from "../lib/store/delivery/group_commit.ts";
import { listGroupEntries, putGroup } from "../lib/store/config/groups.ts";
import type { SendLog } from "../lib/store/delivery/send_logs.ts";
import { createUnitsTogether, type NewUnit } from "../lib/store/delivery/units.ts";
import { laneKeyFor } from "../lib/target_ref.ts";
import { replaceRoutes } from "../lib/store/config/routes.ts";
import { TelegramPacer } from "../lib/telegram/pacer.ts";
import { rerunWithStartFlags } from "../testing/start_flags.ts";
import { closeStore, openStore } from "../lib/store/kv.ts";
import { benchDatabase } from "./_load.ts";
import {
  cpuMsOfSelf,
  describeSample,
  highWaterMiB,
  MemorySampler,
} from "../testing/memory_sample.ts";
import type { Target } from "../lib/types.ts";
import {
  type FakeChat,
  type FakeDiscordLimits,
  type FakeTelegramLimits,
  startFakeDiscord,
  startFakeTelegram,
} from "../testing/fake_chat.ts";

/** Limiters that never wait, for the throughput run. */
const UNLIMITED = {
  discord: new DiscordRateLimiter({ global: { max: 1, windowMs: 0 } }),
  telegram: new TelegramPacer({
    limits: { chatIntervalMs: 0, groupMax: 1, groupWindowMs: 0, globalMax: 1, globalWindowMs: 0 },
  }),
};

const DISCORD_CHANNELS = 10;
const TELEGRAM_CHATS = 5;
const TIME_LIMIT_MS = 300_000;

interface ChatStats {
  received: number;
  requests: number;
  rateLimited: number;
  inOrderOnce: boolean;
  firstAt: number;
  lastAt: number;
}

interface FakeLimits {
  discord?: FakeDiscordLimits;
  telegram?: FakeTelegramLimits;
}

/** Webhooks in flight at once while the bench accepts its events. */
const ACCEPTING_CONNECTIONS = 16;

/**
 * Accepts `count` custom events as the ingress does under concurrent webhooks: through the
 * group commit, `ACCEPTING_CONNECTIONS` at a time, so events share commits and deliver jobs.
 * Each event gets its id when it is handed over, in index order, which the order check relies
 * on.
 */
async function acceptEvents(kv: Kv, count: number): Promise<void> {
  let next = 0;
  const connection = async () => {
    while (next < count) {
      const index = next++;
      const outcome = await saveEventGrouped(kv, {
        provider: "custom",
        kind: "custom",
        scope: { type: "global" },
        receivedAt: Date.now(),
        headers: {},
        body: utf8(JSON.stringify({ message: { title: `Event ${index}` } })),
      });
      if (outcome.status !== "accepted") throw new Error(`event ${index}: ${outcome.status}`);
    }
  };
  await Promise.all(Array.from({ length: ACCEPTING_CONNECTIONS }, connection));
}

function titleOf(platform: "discord" | "telegram", body: Record<string, unknown>): number {
  const text = platform === "discord"
    ? (body.embeds as { title: string }[])[0].title
    : String(body.text);
  return Number(text.match(/Event (\d+)/)?.[1] ?? -1);
}

function statsOf(fake: FakeChat, platform: "discord" | "telegram"): ChatStats {
  const byChat = new Map<string, number[]>();
  for (const message of fake.received) {
    const list = byChat.get(message.chat) ?? [];
    list.push(titleOf(platform, message.body));
    byChat.set(message.chat, list);
  }
  const inOrderOnce = [...byChat.values()].every((numbers) =>
    numbers.every((number, index) => number === index)
  );
  return {
    received: fake.received.length,
    requests: fake.requests(),
    rateLimited: fake.rateLimited(),
    inOrderOnce,
    firstAt: fake.received[0]?.at ?? 0,
    lastAt: fake.received.at(-1)?.at ?? 0,
  };
}

function runFakes(scope: { onmessage: unknown; postMessage(message: unknown): void }) {
  let fakes: { discord: FakeChat; telegram: FakeChat } | null = null;
  scope.onmessage = async (message: { data: unknown }) => {
    const command = message.data as { cmd: "start"; limits: FakeLimits } | { cmd: "stats" } | {
      cmd: "stop";
    };
    if (command.cmd === "start") {
      fakes = {
        discord: startFakeDiscord(command.limits.discord),
        telegram: startFakeTelegram(command.limits.telegram),
      };
      scope.postMessage({ discordUrl: fakes.discord.url, telegramUrl: fakes.telegram.url });
    } else if (command.cmd === "stats" && fakes) {
      scope.postMessage({
        discord: statsOf(fakes.discord, "discord"),
        telegram: statsOf(fakes.telegram, "telegram"),
      });
    } else if (command.cmd === "stop" && fakes) {
      await fakes.discord.close();
      await fakes.telegram.close();
      scope.postMessage({ stopped: true });
    }
  };
}

/** The fakes in their own process, so the figures (peak RSS above all) are the worker's own. */
class FakesProcess {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: AsyncIterator<string>;

  constructor() {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, "--fakes"],
      stdin: "piped",
      stdout: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#lines = linesOf(this.#child.stdout)[Symbol.asyncIterator]();
  }

  /** Sends a command and waits for its answer. */
  async ask<T>(message: unknown): Promise<T> {
    await this.#writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
    const next = await this.#lines.next();
    return JSON.parse(next.value) as T;
  }

  async close() {
    await this.#writer.close();
    await this.#child.status;
  }
}

async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = pending.indexOf("\n")) !== -1) {
      yield pending.slice(0, newline);
      pending = pending.slice(newline + 1);
    }
  }
}

/** Runs the fakes in this process, answering the bench's commands over stdin and stdout. */
async function serveFakes() {
  const scope = {
    onmessage: null as unknown,
    postMessage(message: unknown) {
      Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
    },
  };
  runFakes(scope);
  for await (const line of linesOf(Deno.stdin.readable)) {
    await (scope.onmessage as (event: { data: unknown }) => Promise<void>)({
      data: JSON.parse(line),
    });
  }
}

async function bench() {
  const { values } = parseArgs({
    options: {
      events: { type: "string", default: "1000" },
      scale: { type: "string", default: "100" },
      throughput: { type: "boolean", default: false },
      backlog: { type: "boolean", default: false },
      lanes: { type: "boolean", default: false },
      postgres: { type: "boolean", default: false },
    },
  });
  const events = Number(values.events);
  const scale = Number(values.scale);
  const throughput = values.throughput;
  const lanesOnly = throughput && values.lanes;
  const backlog = throughput && (values.backlog || lanesOnly);
  const discordChannels = throughput ? 1 : DISCORD_CHANNELS;
  const telegramChats = throughput ? 1 : TELEGRAM_CHATS;
  const limits = {
    discord: {
      bucketLimit: 5,
      bucketWindowMs: 5000 / scale,
      globalMax: 50,
      globalWindowMs: 1000 / scale,
    },
    telegram: {
      chatIntervalMs: 1000 / scale,
      groupMax: 20,
      groupWindowMs: 60_000 / scale,
      globalMax: 30,
      globalWindowMs: 1000 / scale,
      toleranceMs: 3,
    },
  };

  const fakesProcess = new FakesProcess();
  const urls = await fakesProcess.ask<{ discordUrl: string; telegramUrl: string }>({
    cmd: "start",
    limits: throughput ? {} : limits,
  });
  const dir = await Deno.makeTempDir({ prefix: "switchyard-bench-" });
  const database = values.postgres ? await benchDatabase() : null;
  if (values.postgres && !database) throw new Error("no PostgreSQL: install Debian's postgresql");
  const kv = await openStore({ kvPath: `${dir}/bench.kv`, databaseUrl: database?.url });
  const config = loadConfig({
    KV_PATH: ":memory:",
    DISCORD_BOT_TOKEN: "bench-token",
    DISCORD_API_URL: urls.discordUrl,
    TELEGRAM_BOT_TOKEN: "1:bench",
    TELEGRAM_API_URL: urls.telegramUrl,
  });
  const log = createLogger({ minLevel: "warn" });
  const discordTargets: Target[] = Array.from({ length: discordChannels }, (_, index) => ({
    platform: "discord",
    channelId: String(1000 + index),
  }));
  const telegramTargets: Target[] = Array.from({ length: telegramChats }, (_, index) => ({
    platform: "telegram",
    chatId: String(-1000 - index),
  }));
  await putGroup(kv, { id: "bench", name: "bench", members: [] });
  await replaceRoutes(kv, [
    {
      id: "discord",
      name: "discord",
      enabled: true,
      groupId: "bench",
      filters: [],
      fallback: true,
      targets: discordTargets,
    },
    {
      id: "telegram",
      name: "telegram",
      enabled: true,
      groupId: "bench",
      filters: [],
      fallback: true,
      targets: telegramTargets,
    },
  ]);
  const worker = createDeliveryWorker({
    kv,
    config,
    log,
    limiters: throughput ? UNLIMITED : {
      discord: new DiscordRateLimiter({ global: { max: 50, windowMs: 1000 / scale } }),
      telegram: new TelegramPacer({ limits: { ...limits.telegram } }),
    },
    maxSleepMs: throughput ? 0 : 1000 / scale,
  });

  const sampler = new MemorySampler();
  const cpuBefore = cpuMsOfSelf();
  const started = performance.now();
  let startedAt = Date.now();
  let queue = backlog ? null : startQueueWorker(kv, worker.handlers, log);
  if (lanesOnly) await fillLanes(kv, events, [...discordTargets, ...telegramTargets]);
  await acceptEvents(kv, lanesOnly ? 0 : events);
  const acceptedMs = performance.now() - started;
  if (!queue) {
    startedAt = Date.now();
    queue = startQueueWorker(kv, worker.handlers, log);
  }
  let stats: { discord: ChatStats; telegram: ChatStats };
  do {
    await new Promise((resolve) => setTimeout(resolve, 250));
    stats = await fakesProcess.ask({ cmd: "stats" });
  } while (
    stats.discord.received + stats.telegram.received <
      events * (discordChannels + telegramChats) &&
    performance.now() - started < TIME_LIMIT_MS
  );
  const elapsedMs = performance.now() - started;
  const peakSample = sampler.stop();
  const cpuMs = cpuMsOfSelf() - cpuBefore;
  await queue.drain(5_000);
  await worker.close();
  await closeStore(kv);
  await database?.stop();
  await fakesProcess.ask({ cmd: "stop" });
  await fakesProcess.close();
  await Deno.remove(dir, { recursive: true });

  const messages = stats.discord.received + stats.telegram.received;
  const peakRssMiB = Math.round(peakSample?.rss ?? 0);
  if (peakSample) {
    console.log(
      `at the peak: ${describeSample(peakSample)}; VmHWM ${highWaterMiB().toFixed(0)} MiB`,
    );
  }
  console.log(`CPU of this process: ${(cpuMs / messages * 1000).toFixed(0)} µs per message`);
  if (throughput) {
    const lastAt = Math.max(stats.discord.lastAt, stats.telegram.lastAt);
    const firstAt = Math.min(stats.discord.firstAt, stats.telegram.firstAt);
    const report = {
      events,
      messages,
      acceptMs: Math.round(acceptedMs),
      elapsedMs: Math.round(elapsedMs),
      sendSpanMs: lastAt - firstAt,
      inOrderOnce: stats.discord.inOrderOnce && stats.telegram.inOrderOnce,
      peakRssMiB,
    };
    console.log(JSON.stringify({ ...report, backlog, lanesOnly }, null, 2));
    const run = (lanesOnly ? "lanes throughput" : backlog ? "backlog throughput" : "throughput") +
      (database ? " (PostgreSQL)" : "");
    printFigures([
      [`${run} messages/s (first to last send)`, messages / (report.sendSpanMs / 1000), "msg/s"],
      [`${run} events/s end to end`, events / ((lastAt - startedAt) / 1000), "events/s"],
      [`${run} peak RSS`, peakRssMiB, "MiB"],
    ]);
    return;
  }
  const discordMinMs = Math.floor((events - 1) / limits.discord.bucketLimit) *
    limits.discord.bucketWindowMs;
  const telegramMinMs = (events - 1) *
    Math.max(
      limits.telegram.chatIntervalMs,
      limits.telegram.groupWindowMs / limits.telegram.groupMax,
    );
  const minimumMs = Math.max(discordMinMs, telegramMinMs);
  console.log(JSON.stringify(
    {
      events,
      scale,
      messages: { discord: stats.discord.received, telegram: stats.telegram.received },
      acceptMs: Math.round(acceptedMs),
      elapsedMs: Math.round(elapsedMs),
      minimumMs: Math.round(minimumMs),
      discord: {
        spanMs: stats.discord.lastAt - startedAt,
        minimumMs: discordMinMs,
        requests: stats.discord.requests,
        rateLimited: stats.discord.rateLimited,
        inOrderOnce: stats.discord.inOrderOnce,
      },
      telegram: {
        spanMs: stats.telegram.lastAt - startedAt,
        minimumMs: telegramMinMs,
        requests: stats.telegram.requests,
        rateLimited: stats.telegram.rateLimited,
        inOrderOnce: stats.telegram.inOrderOnce,
      },
      peakRssMiB,
    },
    null,
    2,
  ));
  printFigures([
    [`makespan / minimum at scale ${scale}`, elapsedMs / minimumMs, "ratio"],
    [`429s at scale ${scale}`, stats.discord.rateLimited + stats.telegram.rateLimited, "count"],
    [
      `in order, once at scale ${scale}`,
      stats.discord.inOrderOnce && stats.telegram.inOrderOnce ? 1 : 0,
      "bool",
    ],
    [`peak RSS at scale ${scale} (${messages} messages)`, peakRssMiB, "MiB"],
  ]);
}

/**
 * Puts one unit per (event, target) in the targets' lanes, as a fan-out would (in event order,
 * 40 units a commit), with the bodies the fakes read "Event N" from.
 */
async function fillLanes(kv: Kv, events: number, targets: Target[]) {
  const [{ internalId }] = await listGroupEntries(kv);
  const now = Date.now();
  const units: NewUnit[] = [];
  for (let index = 0; index < events; index++) {
    const eventId = `0BENCH${String(index).padStart(20, "0")}`;
    for (const [number, target] of targets.entries()) {
      const title = `Event ${index}`;
      const body = target.platform === "discord"
        ? { embeds: [{ title }], allowed_mentions: { parse: [] } }
        : { text: title, parse_mode: "HTML", link_preview_options: { is_disabled: true } };
      const log: SendLog = {
        id: `${eventId}-${number}`,
        deliveryId: eventId,
        eventId,
        event: "custom",
        provider: "custom",
        groupId: "bench",
        groupInternalId: internalId,
        routeId: target.platform,
        platform: target.platform,
        target,
        status: "retrying",
        attempts: 0,
        createdAt: now,
        updatedAt: now,
      };
      units.push({ log, body, lane: laneKeyFor(target) });
    }
  }
  await createUnitsTogether(kv, units, now, 86_400_000);
}

/** Prints one JSON line per figure, for the benchmark runner. */
function printFigures(figures: [metric: string, value: number, unit: string][]) {
  for (const [metric, value, unit] of figures) {
    const rounded = Math.round(value * 1000) / 1000;
    console.log(JSON.stringify({ bench: "delivery", metric, value: rounded, unit }));
  }
}

if (import.meta.main) {
  if (Deno.args.includes("--fakes")) await serveFakes();
  else {
    // The worker runs with the start task's V8 flags, so its memory is the product's.
    const code = await rerunWithStartFlags(new URL(import.meta.url));
    if (code === null) await bench();
    else Deno.exit(code);
  }
}
