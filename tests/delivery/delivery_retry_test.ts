/** Delivery retries: 5xx and network errors back off, 429 waits, 4xx is final, dead, redelivery. */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { laneEntriesPrefix, unitBodyKey } from "../../lib/store/keys.ts";
import { readMetrics } from "../../lib/store/telemetry/metrics.ts";
import { redeliver } from "../../lib/store/delivery/units.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  logsOf,
  runWorker,
  settled,
  storeRoutes,
  TEST_BACKOFF_MS,
  waitFor,
} from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const serverError = { status: 500, body: { message: "500: Internal Server Error", code: 0 } };

async function laneEntries(kv: Kv): Promise<number> {
  let count = 0;
  for await (const _ of kv.list({ prefix: ["lanes"] })) count++;
  return count;
}

Deno.test("a 5xx then success delivers exactly one message, with the attempts recorded", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [customRoute("alerts", [{ platform: "discord", channelId: "100" }])]);
  discord.script("100", [serverError, { status: 503, body: { message: "unavailable" } }]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));

  const eventId = await acceptCustom(kv, "Build failed");
  const [log] = await settled(kv, eventId);

  assert.equal(log.status, "ok");
  assert.equal(log.attempts, 3);
  assert.equal(log.httpStatus, 200);
  assert.equal(log.error, undefined);
  assert.equal(log.messageId, discord.received[0].messageId);
  assert.equal(discord.requests(), 3);
  assert.deepEqual(discordTitles(discord), ["Build failed"]);
  const body = discord.received[0].body;
  assert.equal(body.enforce_nonce, true);
  assert.match(String(body.nonce), /^[0-9a-f]{25}$/);
  assert.equal((await kv.get(unitBodyKey(log.id))).versionstamp, null, "body dropped once ok");
  assert.equal(await laneEntries(kv), 0);
  const metrics = await readMetrics(kv);
  assert.deepEqual(metrics.totals, { total: 1, ok: 1, failed: 0, dead: 0, retrying: 2 });
});

Deno.test("a 429 waits the platform's retry_after, then sends once", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await storeRoutes(kv, [
    customRoute("alerts", [
      { platform: "discord", channelId: "200" },
      { platform: "telegram", chatId: "-100200" },
    ]),
  ]);
  discord.script("200", [{
    status: 429,
    body: { message: "You are being rate limited.", retry_after: 0.3, global: false },
  }]);
  telegram.script("-100200", [{
    status: 429,
    body: {
      ok: false,
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 1 },
    },
  }]);
  await using _worker = runWorker(kv, deliveryConfig({ discord, telegram }));

  const started = Date.now();
  const eventId = await acceptCustom(kv, "Release 1.0");
  const logs = await settled(kv, eventId, 2);

  const byPlatform = Object.fromEntries(logs.map((log) => [log.platform, log]));
  assert.equal(byPlatform.discord.status, "ok");
  assert.equal(byPlatform.discord.attempts, 2);
  assert.equal(byPlatform.telegram.status, "ok");
  assert.equal(byPlatform.telegram.attempts, 2);
  assert.ok(discord.received[0].at - started >= 300, "Discord's retry_after was honoured");
  assert.ok(telegram.received[0].at - started >= 1000, "Telegram's retry_after was honoured");
  assert.equal(discord.received.length, 1);
  assert.equal(telegram.received.length, 1);
  assert.equal(discord.rateLimited(), 1);
  assert.equal(telegram.rateLimited(), 1);
});

Deno.test("a 4xx other than 429 is final, with the platform's message", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [customRoute("alerts", [{ platform: "discord", channelId: "300" }])]);
  // (A 403 or 404 pauses the target instead: tests/delivery/delivery_target_health_test.ts.)
  discord.script("300", [{ status: 400, body: { message: "Invalid Form Body", code: 50035 } }]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));

  const eventId = await acceptCustom(kv, "Denied");
  const [log] = await settled(kv, eventId);

  assert.equal(log.status, "failed");
  assert.equal(log.attempts, 1);
  assert.equal(log.httpStatus, 400);
  assert.equal(log.error, "Invalid Form Body");
  assert.equal(discord.requests(), 1);
  assert.notEqual((await kv.get(unitBodyKey(log.id))).versionstamp, null, "kept for redelivery");
});

Deno.test("dead after the last retry; redelivery sends it once and never re-sends the good one", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [
    customRoute("alerts", [
      { platform: "discord", channelId: "400" },
      { platform: "discord", channelId: "401" },
    ]),
  ]);
  discord.script("401", Array(TEST_BACKOFF_MS.length + 1).fill(serverError));
  await using _worker = runWorker(kv, deliveryConfig({ discord }));

  const eventId = await acceptCustom(kv, "Deploy", "delivery-dead-1");
  const logs = await settled(kv, "delivery-dead-1", 2);
  const good = logs.find((log) =>
    log.target.platform === "discord" && log.target.channelId === "400"
  )!;
  const bad = logs.find((log) => log !== good)!;
  assert.equal(good.status, "ok");
  assert.equal(bad.status, "dead");
  assert.equal(bad.attempts, TEST_BACKOFF_MS.length + 1);
  assert.equal(bad.httpStatus, 500);
  assert.equal(bad.eventId, eventId);
  assert.deepEqual(discordTitles(discord, "401"), []);

  const result = await redeliver(kv, "delivery-dead-1");
  assert.deepEqual(result, { requeued: [bad.id], expired: [] });
  const after = await settled(kv, "delivery-dead-1", 2);
  assert.ok(after.every((log) => log.status === "ok"));
  assert.deepEqual(discordTitles(discord, "400"), ["Deploy"], "the good target got it once");
  assert.deepEqual(discordTitles(discord, "401"), ["Deploy"]);
  assert.equal(after.find((log) => log.id === bad.id)!.attempts, TEST_BACKOFF_MS.length + 2);
  assert.deepEqual(await redeliver(kv, "delivery-dead-1"), { requeued: [], expired: [] });

  // The overview counts each unit once, by its final state: the redelivered unit is ok now.
  const metrics = await readMetrics(kv, { groupIds: ["team"] });
  assert.deepEqual(metrics.byStatus, {
    ok: 2,
    failed: 0,
    dead: 0,
    retrying: TEST_BACKOFF_MS.length,
  }, "the redelivered message counts once, by its final state");
  assert.equal(metrics.recentFailures.length, 0, "the dead unit is ok now");
});

Deno.test("network errors retry, then the unit is dead", async () => {
  await using kv = await openTestKv();
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const unreachable = `http://127.0.0.1:${(closed.addr as Deno.NetAddr).port}`;
  closed.close();
  await storeRoutes(kv, [customRoute("alerts", [{ platform: "telegram", chatId: "500" }])]);
  await using _worker = runWorker(
    kv,
    deliveryConfig({}, { TELEGRAM_BOT_TOKEN: "1:x", TELEGRAM_API_URL: unreachable }),
  );

  const eventId = await acceptCustom(kv, "Offline");
  const [log] = await settled(kv, eventId);

  assert.equal(log.status, "dead");
  assert.equal(log.attempts, TEST_BACKOFF_MS.length + 1);
  assert.equal(log.httpStatus, undefined);
  assert.ok(log.error);
});

Deno.test("a target whose platform is not configured waits in its lane with a clear error", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [
    customRoute("alerts", [
      { platform: "telegram", chatId: "600" },
      { platform: "discord", channelId: "601" },
    ]),
  ]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));

  const eventId = await acceptCustom(kv, "Half configured");
  await waitFor("the telegram unit to say why it waits", async () => {
    const logs = await logsOf(kv, eventId);
    return logs.length === 2 && logs.some((log) =>
      log.platform === "discord" && log.status === "ok"
    ) &&
      logs.some((log) => log.platform === "telegram" && log.error !== undefined);
  });
  const logs = await logsOf(kv, eventId);
  const telegramLog = logs.find((log) => log.platform === "telegram")!;
  assert.equal(telegramLog.status, "retrying");
  assert.equal(telegramLog.attempts, 0);
  assert.equal(telegramLog.error, "Telegram is not configured: set TELEGRAM_BOT_TOKEN and restart");
  assert.equal(discord.received.length, 1);
  assert.equal(
    (await Array.fromAsync(kv.list({ prefix: laneEntriesPrefix("telegram:600") }))).length,
    1,
    "the unit stays in its lane",
  );
});
