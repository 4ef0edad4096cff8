/**
 * A restart in the middle of a queue: the KV file is closed while a Discord
 * call is in flight and Telegram units wait for their pace, then reopened by a
 * new worker. Nothing is lost and nothing shows twice.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { listSendLogs } from "../lib/store/send_logs.ts";
import { startFakeDiscord, startFakeTelegram } from "../testing/fake_chat.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  runWorker,
  waitFor,
} from "./_delivery_helpers.ts";
import { DiscordRateLimiter } from "../lib/discord/rate_limit.ts";
import { TelegramPacer } from "../lib/telegram/pacer.ts";
import { storeRoutes } from "./_delivery_helpers.ts";

const EVENTS = 20;
const TELEGRAM_INTERVAL_MS = 150;

function slowTelegram() {
  return new TelegramPacer({
    limits: {
      chatIntervalMs: TELEGRAM_INTERVAL_MS,
      groupMax: 1000,
      groupWindowMs: 1000,
      globalMax: 1000,
      globalWindowMs: 1000,
    },
  });
}

Deno.test("a restart mid-queue loses and duplicates nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "switchyard-restart-" });
  const path = join(dir, "switchyard.kv");
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  const config = deliveryConfig({ discord, telegram });
  const timings = { leaseMs: 500, maxSleepMs: 0, laneBudgetMs: 200 };
  const titles = Array.from({ length: EVENTS }, (_, index) => `Change ${index + 1}`);

  const first = await Deno.openKv(path);
  await storeRoutes(first, [
    customRoute("all", [{ platform: "discord", channelId: "77" }, {
      platform: "telegram",
      chatId: "88",
    }]),
  ]);
  const before = runWorker(first, config, {
    ...timings,
    limiters: { discord: new DiscordRateLimiter(), telegram: slowTelegram() },
  });
  for (const title of titles) await acceptCustom(first, title);

  await waitFor("a few messages", () => discord.received.length >= 5);
  const held = discord.holdNext("77");
  await held.arrived;
  await waitFor("the Telegram lane to be between sends", () => {
    const last = telegram.received.at(-1)?.at ?? 0;
    const since = Date.now() - last;
    return telegram.received.length >= 2 && since >= 40 && since <= 90;
  });
  first.close();
  held.release();
  await before.stop();
  const sentBeforeRestart = telegram.received.length;
  assert.ok(sentBeforeRestart < EVENTS, "the restart happened mid-queue");

  const second = await Deno.openKv(path);
  try {
    const after = runWorker(second, config, {
      ...timings,
      limiters: { discord: new DiscordRateLimiter(), telegram: slowTelegram() },
    });
    await after.worker.upkeep();
    await waitFor(
      "every unit to be final",
      async () => {
        const page = await listSendLogs(second, { status: "ok", limit: 200 });
        return page.items.length === 2 * EVENTS;
      },
      20_000,
    );
    await after.stop();

    assert.deepEqual(discordTitles(discord), titles, "Discord: each once, in order");
    assert.ok(discord.requests() > EVENTS, "the held call was made again (and deduplicated)");
    assert.deepEqual(
      telegram.received.map((message) => String(message.body.text).match(/Change \d+/)![0]),
      titles,
      "Telegram: each once, in order",
    );
    const page = await listSendLogs(second, { limit: 200 });
    assert.equal(page.items.length, 2 * EVENTS);
    assert.ok(page.items.every((log) => log.status === "ok"));
  } finally {
    second.close();
    await Deno.remove(dir, { recursive: true });
  }
});
