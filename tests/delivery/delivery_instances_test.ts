/**
 * Three delivery instances, each its own `deno run` process, on one store (a KV file, or one
 * PostgreSQL database with `TEST_STORE=postgres`, each instance with its own pool),
 * each accepting a third of the events (as instances behind no load balancer
 * would): every message reaches its chat once and in event order, Discord
 * answers no 429 (its buckets are discovered from headers; a lane is owned by
 * one instance at a time and its bucket passes with it), the times at which
 * all instances together let Telegram messages go keep each chat's pace (the
 * fake judges arrival, which a busy machine can delay, so its 429s are not the
 * measure), and every unit ends `ok`. Time is scaled down 10 times on the
 * fakes and in the instances' limiters alike.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { listSendLogs } from "../../lib/store/delivery/send_logs.ts";
import type { Target } from "../../lib/types.ts";
import { type FakeChat, startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { startInstance } from "../../testing/instances.ts";
import { customRoute, storeRoutes, waitFor } from "../_delivery_helpers.ts";
import { instanceStore, sharedStore } from "../_instances_helpers.ts";

const SCALE = 10;
const EVENTS = 30;
const DISCORD: Target[] = Array.from({ length: 8 }, (_, index) => ({
  platform: "discord",
  channelId: String(500 + index),
}));
const TELEGRAM: Target[] = [
  { platform: "telegram", chatId: "-7001" },
  { platform: "telegram", chatId: "-7002" },
  { platform: "telegram", chatId: "7003" },
  { platform: "telegram", chatId: "7004" },
];

/** How many send logs have each status. */
async function statuses(kv: Kv): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let cursor: string | undefined;
  do {
    const page = await listSendLogs(kv, { limit: 200, cursor });
    for (const log of page.items) counts.set(log.status, (counts.get(log.status) ?? 0) + 1);
    cursor = page.cursor;
  } while (cursor);
  return counts;
}

/** The event numbers each chat received, in arrival order. */
function numbersByChat(fake: FakeChat, text: (body: Record<string, unknown>) => string) {
  const byChat = new Map<string, number[]>();
  for (const message of fake.received) {
    const list = byChat.get(message.chat) ?? [];
    list.push(Number(text(message.body).match(/Event (\d+)/)![1]));
    byChat.set(message.chat, list);
  }
  return byChat;
}

Deno.test("three instances on one store: once, in order, within the limits", async () => {
  await using store = await sharedStore();
  await using discord = startFakeDiscord({
    bucketLimit: 5,
    bucketWindowMs: 5000 / SCALE,
    globalMax: 50,
    globalWindowMs: 1000 / SCALE,
  });
  await using telegram = startFakeTelegram({
    chatIntervalMs: 1000 / SCALE,
    groupMax: 20,
    groupWindowMs: 60_000 / SCALE,
    globalMax: 30,
    globalWindowMs: 1000 / SCALE,
    toleranceMs: 20,
  });
  const kv = await store.open();
  const instances = Array.from({ length: 3 }, () =>
    startInstance({
      ...instanceStore(store),
      discordUrl: discord.url,
      telegramUrl: telegram.url,
      scale: SCALE,
      sweepMs: 500,
      stallMs: 2_000,
    }));
  try {
    await storeRoutes(kv, [
      customRoute("discord", DISCORD),
      customRoute("telegram", TELEGRAM),
    ]);
    await Promise.all(instances.map((instance) => instance.ready));
    const eventIds: string[] = [];
    for (let index = 0; index < EVENTS; index++) {
      eventIds.push(await instances[index % instances.length].accept(`Event ${index}`));
    }

    const expected = EVENTS * (DISCORD.length + TELEGRAM.length);
    await waitFor(
      "every message to arrive",
      () => discord.received.length + telegram.received.length >= expected,
      90_000,
    );
    await waitFor("every unit to be recorded ok", async () => {
      return (await statuses(kv)).get("ok") === expected;
    }, 30_000);

    const inOrder = Array.from({ length: EVENTS }, (_, index) => index)
      .sort((a, b) => eventIds[a] < eventIds[b] ? -1 : 1);
    const discordChats = numbersByChat(
      discord,
      (body) => (body.embeds as { title: string }[])[0].title,
    );
    const telegramChats = numbersByChat(telegram, (body) => String(body.text));
    assert.equal(discordChats.size, DISCORD.length);
    assert.equal(telegramChats.size, TELEGRAM.length);
    for (const [chat, numbers] of [...discordChats, ...telegramChats]) {
      assert.deepEqual(numbers, inOrder, `chat ${chat}: each event once, in order`);
    }
    assert.equal(discord.rateLimited(), 0, "Discord answered no 429");
    const sends = new Map<string, number[]>();
    for (const instance of instances) {
      for (const [chat, times] of Object.entries(await instance.telegramSends())) {
        sends.set(chat, [...(sends.get(chat) ?? []), ...times]);
      }
    }
    for (const [chat, times] of sends) {
      times.sort((a, b) => a - b);
      const gaps = times.slice(1).map((time, index) => time - times[index]);
      const pace = chat.startsWith("-") ? 60_000 / 20 / SCALE : 1000 / SCALE;
      assert.ok(Math.min(...gaps) >= pace - 1, `chat ${chat}: sends at least ${pace} ms apart`);
    }
    assert.deepEqual([...await statuses(kv)], [["ok", expected]]);
  } catch (error) {
    console.error("statuses", [...await statuses(kv)]);
    for (const instance of instances) console.error(instance.stderr().slice(-3000));
    throw error;
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
  }
});
