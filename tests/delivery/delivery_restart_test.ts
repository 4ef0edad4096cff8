/**
 * A restart in the middle of a queue: the first run (in a Web Worker) is stopped dead while a
 * Discord call is in flight and the Telegram lane waits for its pace, then a new worker opens
 * the same store (KV file or PostgreSQL database). Nothing is lost and nothing shows twice (Discord deduplicates the call made
 * again by its nonce; Telegram has no such key, so the first run stops between its calls).
 */
import assert from "node:assert/strict";
import { DiscordRateLimiter } from "../../lib/discord/rate_limit.ts";
import { listSendLogs } from "../../lib/store/delivery/send_logs.ts";
import { TelegramPacer } from "../../lib/telegram/pacer.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { sharedTestStore } from "../../testing/test_store.ts";
import { deliveryConfig, discordTitles, runWorker, waitFor } from "../_delivery_helpers.ts";
import {
  type FirstRun,
  PACED_TELEGRAM,
  RESTART_TIMINGS,
  TELEGRAM_SENT_FIRST,
} from "../_restart_worker.ts";

const EVENTS = 20;

Deno.test("a restart mid-queue loses and duplicates nothing", async () => {
  await using store = await sharedTestStore();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  const titles = Array.from({ length: EVENTS }, (_, index) => `Change ${index + 1}`);

  const held = discord.holdNext("77", 5);
  const firstRun = new Worker(new URL("../_restart_worker.ts", import.meta.url), {
    type: "module",
  });
  let telegramWaiting = false;
  firstRun.onmessage = ({ data }) => {
    if (data === "telegram waiting") telegramWaiting = true;
  };
  firstRun.postMessage(
    {
      store: store.settings,
      discordUrl: discord.url,
      telegramUrl: telegram.url,
      titles,
    } satisfies FirstRun,
  );
  let discordInFlight = false;
  held.arrived.then(() => discordInFlight = true);
  await waitFor(
    "a Discord call in flight and the Telegram lane waiting",
    () => discordInFlight && telegramWaiting,
  );
  firstRun.terminate();
  held.release();
  assert.equal(discord.received.length, 6, "five answered, the sixth in flight");
  assert.equal(telegram.received.length, TELEGRAM_SENT_FIRST);

  const kv = await store.open();
  {
    const config = deliveryConfig({ discord, telegram });
    await using after = runWorker(kv, config, {
      ...RESTART_TIMINGS,
      limiters: {
        discord: new DiscordRateLimiter(),
        telegram: new TelegramPacer({ limits: PACED_TELEGRAM }),
      },
    });
    await after.worker.upkeep();
    await waitFor("every unit to be final", async () => {
      const page = await listSendLogs(kv, { status: "ok", limit: 200 });
      return page.items.length === 2 * EVENTS;
    }, 30_000);
    await after.stop();

    assert.deepEqual(discordTitles(discord), titles, "Discord: each once, in order");
    assert.equal(
      discord.requests(),
      EVENTS + 1,
      "the call in flight was made again (and deduplicated by its nonce)",
    );
    assert.deepEqual(
      telegram.received.map((message) => String(message.body.text).match(/Change \d+/)![0]),
      titles,
      "Telegram: each once, in order",
    );
    const page = await listSendLogs(kv, { limit: 200 });
    assert.equal(page.items.length, 2 * EVENTS);
    assert.deepEqual(page.items.filter((log) => log.status !== "ok"), []);
  }
});
