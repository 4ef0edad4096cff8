/**
 * Digest benchmark: a burst of 1,000 events on one route with a Discord channel and a Telegram
 * group as targets, delivered once without a digest and once with
 * `digest: { windowSeconds: 600, threshold: 10 }`. It counts the messages each fake platform
 * received, the edits, and the time until every unit was final (the fakes answer at once; the
 * Telegram pacer runs 100 times faster than Telegram's limits, Discord's from its headers).
 *
 *   deno run -A bench/digest_bench.ts [--events 1000]
 */
import type { Kv } from "../lib/store/backend/types.ts";
import { parseArgs } from "node:util";
import { loadConfig } from "../lib/config.ts";
import { createDeliveryWorker } from "../lib/delivery/worker.ts";
import { utf8 } from "../lib/encoding.ts";
import { createLogger } from "../lib/log.ts";
import { allowTargets } from "../lib/store/config/allowed_targets.ts";
import { saveEvent } from "../lib/store/delivery/events.ts";
import { putGroup } from "../lib/store/config/groups.ts";
import { startQueueWorker } from "../lib/delivery/job_worker.ts";
import { replaceRoutes } from "../lib/store/config/routes.ts";
import { listSendLogs } from "../lib/store/delivery/send_logs.ts";
import { TelegramPacer } from "../lib/telegram/pacer.ts";
import type { Route, Target } from "../lib/types.ts";
import { startFakeDiscord, startFakeTelegram } from "../testing/fake_chat.ts";

const TARGETS: Target[] = [
  { platform: "discord", channelId: "1000" },
  { platform: "telegram", chatId: "-1000" },
];
const OPERATOR = { userId: "1", login: "bench" };

/** How many units of the group are final (not `retrying`). */
async function finalUnits(kv: Kv): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await listSendLogs(kv, { groupId: "bench", limit: 200, cursor });
    count += page.items.filter((log) => log.status !== "retrying").length;
    cursor = page.cursor;
  } while (cursor);
  return count;
}

async function run(events: number, digest: Route["digest"]) {
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await using kv = await Deno.openKv(":memory:");
  const config = loadConfig({
    KV_PATH: ":memory:",
    DISCORD_BOT_TOKEN: "bench-token",
    DISCORD_API_URL: discord.url,
    TELEGRAM_BOT_TOKEN: "1:bench",
    TELEGRAM_API_URL: telegram.url,
  });
  const log = createLogger({ minLevel: "warn" });
  await putGroup(kv, { id: "bench", name: "bench", members: [] });
  await allowTargets(kv, "bench", TARGETS, OPERATOR, "admin");
  await replaceRoutes(kv, [{
    id: "burst",
    name: "burst",
    enabled: true,
    groupId: "bench",
    filters: [],
    fallback: true,
    targets: TARGETS,
    ...(digest ? { digest } : {}),
  }]);
  const worker = createDeliveryWorker({
    kv,
    config,
    log,
    limiters: {
      telegram: new TelegramPacer({
        limits: {
          chatIntervalMs: 10,
          groupMax: 20,
          groupWindowMs: 600,
          globalMax: 30,
          globalWindowMs: 10,
        },
      }),
    },
    maxSleepMs: 10,
  });
  const started = performance.now();
  const queue = startQueueWorker(kv, worker.handlers, log);
  for (let index = 0; index < events; index++) {
    await saveEvent(kv, {
      provider: "custom",
      kind: "custom",
      scope: { type: "global" },
      receivedAt: Date.now(),
      headers: {},
      body: utf8(JSON.stringify({ message: { title: `Event ${index}` } })),
    });
  }
  while (await finalUnits(kv) < events * TARGETS.length) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const seconds = (performance.now() - started) / 1000;
  await queue.drain(5_000);
  worker.close();
  return {
    discord: discord.received.length,
    telegram: telegram.received.length,
    edits: discord.edits.length + telegram.edits.length,
    seconds: seconds.toFixed(1),
  };
}

const { values } = parseArgs({ options: { events: { type: "string", default: "1000" } } });
const events = Number(values.events);
const without = await run(events, undefined);
const withDigest = await run(events, { windowSeconds: 600, threshold: 10 });
console.log(`| case | Discord messages | Telegram messages | edits | all units final |`);
console.log(`| --- | --- | --- | --- | --- |`);
for (
  const [name, result] of [["no digest", without], ["digest (600 s, 10)", withDigest]] as const
) {
  console.log(
    `| ${name} | ${result.discord} | ${result.telegram} | ${result.edits} | ${result.seconds} s |`,
  );
}
