/** Fan-out and lanes: units made once, targets independent, bursts in order within the limits. */
import assert from "node:assert/strict";
import { laneKeyFor } from "../../lib/target_ref.ts";
import { laneRunKey } from "../../lib/store/keys.ts";
import { listSendLogs, type SendLog } from "../../lib/store/delivery/send_logs.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { DiscordRateLimiter } from "../../lib/discord/rate_limit.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  FAST_TELEGRAM,
  logsOf,
  runWorker,
  SchedulePacer,
  settled,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

Deno.test("running a deliver job again makes no second unit and sends nothing twice", async () => {
  await using kv = await openTestKv();
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
  const routed = running.lines.filter((line) => line.message === "event routed");
  assert.deepEqual(routed.map((line) => [line.units, line.created]), [[2, 1], [2, 0]]);
  // The lane sends in order: once a later event has arrived, anything the second run could
  // have queued for the channel would have been sent before it.
  await settled(kv, await acceptCustom(kv, "Later"));

  assert.equal((await logsOf(kv, eventId)).length, 1, "a target named twice is one unit");
  assert.deepEqual(discordTitles(discord), ["Once", "Later"]);
  const lane = laneRunKey(laneKeyFor({ platform: "discord", channelId: "700" }));
  await waitFor("the lane to go idle", async () => (await kv.get(lane)).versionstamp === null);
});

function channelOf(log: SendLog): string {
  return log.target.platform === "discord" ? log.target.channelId : "";
}

function statusByChannel(logs: SendLog[]): Map<string, string> {
  return new Map(logs.map((log) => [channelOf(log), log.status]));
}

Deno.test("a failing target does not hold up another target", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [
    customRoute("alerts", [
      { platform: "discord", channelId: "801" },
      { platform: "discord", channelId: "802" },
    ]),
  ]);
  discord.script("801", Array(2).fill({ status: 502, body: { message: "Bad Gateway" } }));
  const stuck = discord.holdNext("801");
  await using _worker = runWorker(kv, deliveryConfig({ discord }));

  const eventId = await acceptCustom(kv, "Parallel");
  await stuck.arrived;
  // 801's third attempt stays unanswered until released: 802 must finish meanwhile.
  let during = new Map<string, string>();
  await waitFor("the healthy channel to be sent while the failing one is held", async () => {
    during = statusByChannel(await logsOf(kv, eventId));
    return during.get("802") === "ok";
  });
  assert.equal(during.get("801"), "retrying", "the failing channel was still unanswered");
  stuck.release();
  const logs = await settled(kv, eventId, 2);

  assert.deepEqual(statusByChannel(logs), new Map([["801", "ok"], ["802", "ok"]]));
  const attempts = new Map(logs.map((log) => [channelOf(log), log.attempts]));
  assert.deepEqual(attempts, new Map([["801", 3], ["802", 1]]), "801: two 502s, then success");
  assert.equal(discord.requests(), 4);
  assert.deepEqual(discordTitles(discord, "801"), ["Parallel"]);
  assert.deepEqual(discordTitles(discord, "802"), ["Parallel"]);
});

Deno.test("a burst for one channel and one group chat arrives in order, with no 429", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord({
    bucketLimit: 5,
    bucketWindowMs: 200,
    globalMax: 50,
    globalWindowMs: 1000,
  });
  // Discord's fake judges by arrival: its bucket headers tell the limiter when the window
  // resets, so a late request only arrives later. Telegram publishes no headers; its fake judges
  // each message at the time the worker's pacer scheduled it (1 ms for rounding), so the check
  // is whether the pacer's schedule keeps the limits, whatever the machine's load.
  const pacer = new SchedulePacer(FAST_TELEGRAM);
  await using telegram = startFakeTelegram({ ...FAST_TELEGRAM, toleranceMs: 1 }, {
    sentAt: pacer.sentAt,
  });
  await storeRoutes(kv, [
    customRoute("burst", [
      { platform: "discord", channelId: "900" },
      { platform: "telegram", chatId: "-100900", topicId: 7 },
    ]),
  ]);
  await using _worker = runWorker(kv, deliveryConfig({ discord, telegram }), {
    limiters: { discord: new DiscordRateLimiter(), telegram: pacer },
  });

  const count = 40;
  const titles = Array.from({ length: count }, (_, index) => `Event ${index + 1}`);
  for (const title of titles) await acceptCustom(kv, title);
  const query = { groupId: "team", routeId: "burst", status: "ok" } as const;
  await waitFor(
    "the burst, every outcome recorded",
    async () => (await listSendLogs(kv, { ...query, limit: 200 })).items.length === 2 * count,
    20_000,
  );

  assert.deepEqual(discordTitles(discord), titles);
  assert.deepEqual(
    telegram.received.map((message) => String(message.body.text).match(/Event \d+/)![0]),
    titles,
  );
  assert.equal(discord.rateLimited(), 0);
  assert.equal(telegram.rateLimited(), 0);
  assert.equal(discord.requests(), count);
  assert.equal(telegram.requests(), count);
  assert.equal(pacer.granted(), count, "every Telegram message was scheduled by the pacer");
  assert.ok(telegram.received.every((message) => message.body.message_thread_id === 7));
  const minimumMs = Math.floor((count - 1) / 5) * 200;
  const spanMs = discord.received[count - 1].at - discord.received[0].at;
  assert.ok(spanMs >= minimumMs, `the bucket was respected (${spanMs} ms)`);
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
