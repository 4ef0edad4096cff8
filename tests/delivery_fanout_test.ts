/** Fan-out and lanes: units made once, targets independent, bursts in order within the limits. */
import assert from "node:assert/strict";
import { laneKeyFor } from "../lib/delivery/targets.ts";
import { laneRunKey } from "../lib/store/keys.ts";
import { listSendLogs } from "../lib/store/send_logs.ts";
import { startFakeDiscord, startFakeTelegram } from "../testing/fake_chat.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  FAST_TELEGRAM,
  logsOf,
  runWorker,
  settled,
  storeRoutes,
  waitFor,
} from "./_delivery_helpers.ts";

Deno.test("running a deliver job again makes no second unit and sends nothing twice", async () => {
  await using kv = await Deno.openKv(":memory:");
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [
    customRoute("alerts", [
      { platform: "discord", channelId: "700" },
      { platform: "discord", channelId: "700" },
    ]),
  ]);
  await using running = runWorker(kv, deliveryConfig({ discord }));

  const eventId = await acceptCustom(kv, "Once");
  await settled(kv, eventId);
  await running.worker.handlers.deliver({ type: "deliver", eventId });
  await new Promise((resolve) => setTimeout(resolve, 300));

  assert.equal((await logsOf(kv, eventId)).length, 1, "a target named twice is one unit");
  assert.deepEqual(discordTitles(discord), ["Once"]);
  assert.equal(
    (await kv.get(laneRunKey(laneKeyFor({ platform: "discord", channelId: "700" }))))
      .versionstamp,
    null,
    "the lane went idle",
  );
});

Deno.test("a failing target does not hold up another target", async () => {
  await using kv = await Deno.openKv(":memory:");
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [
    customRoute("alerts", [
      { platform: "discord", channelId: "801" },
      { platform: "discord", channelId: "802" },
    ]),
  ]);
  discord.script("801", Array(2).fill({ status: 502, body: { message: "Bad Gateway" } }));
  await using _worker = runWorker(kv, deliveryConfig({ discord }), { backoffMs: [400, 400] });

  const started = Date.now();
  const eventId = await acceptCustom(kv, "Parallel");
  const logs = await settled(kv, eventId, 2);

  assert.ok(logs.every((log) => log.status === "ok"));
  const at802 = discord.received.find((message) => message.chat === "802")!.at;
  const at801 = discord.received.find((message) => message.chat === "801")!.at;
  assert.ok(at802 - started < 400, "the healthy channel was not delayed by the failing one");
  assert.ok(at801 - started >= 800, "the failing channel backed off twice");
  assert.deepEqual(discordTitles(discord, "801"), ["Parallel"]);
  assert.deepEqual(discordTitles(discord, "802"), ["Parallel"]);
});

Deno.test("a burst for one channel and one group chat arrives in order, with no 429", async () => {
  await using kv = await Deno.openKv(":memory:");
  await using discord = startFakeDiscord({
    bucketLimit: 5,
    bucketWindowMs: 200,
    globalMax: 50,
    globalWindowMs: 1000,
  });
  await using telegram = startFakeTelegram({ ...FAST_TELEGRAM, toleranceMs: 15 });
  await storeRoutes(kv, [
    customRoute("burst", [
      { platform: "discord", channelId: "900" },
      { platform: "telegram", chatId: "-100900", topicId: 7 },
    ]),
  ]);
  await using _worker = runWorker(kv, deliveryConfig({ discord, telegram }));

  const count = 40;
  const titles = Array.from({ length: count }, (_, index) => `Event ${index + 1}`);
  for (const title of titles) await acceptCustom(kv, title);
  await waitFor(
    "the burst",
    () => discord.received.length === count && telegram.received.length === count,
    20_000,
  );

  assert.deepEqual(discordTitles(discord), titles);
  assert.deepEqual(
    telegram.received.map((message) => String(message.body.text).match(/Event \d+/)![0]),
    titles,
  );
  assert.equal(discord.rateLimited(), 0);
  assert.equal(telegram.rateLimited(), 0);
  assert.ok(telegram.received.every((message) => message.body.message_thread_id === 7));
  const minimumMs = Math.floor((count - 1) / 5) * 200;
  const spanMs = discord.received[count - 1].at - discord.received[0].at;
  assert.ok(spanMs >= minimumMs, `the bucket was respected (${spanMs} ms)`);
  assert.ok(spanMs < minimumMs + 1500, `and used as fully as it allows (${spanMs} ms)`);
  const query = { groupId: "team", routeId: "burst", status: "ok" } as const;
  const first = await listSendLogs(kv, query);
  assert.equal(first.items.length, 50);
  assert.ok(first.cursor);
  const second = await listSendLogs(kv, { ...query, cursor: first.cursor });
  assert.equal(second.items.length, 2 * count - 50);
  assert.equal(second.cursor, undefined);
  const ids = [...first.items, ...second.items].map((log) => log.id);
  assert.deepEqual(ids, [...ids].sort().reverse(), "newest first, no overlap");
  assert.equal(new Set(ids).size, 2 * count);
});
