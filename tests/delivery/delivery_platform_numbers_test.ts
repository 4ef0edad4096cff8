/**
 * Numbers from the platforms are checked before a lane waits on them: a 429 or
 * a rate-limit header asking for years holds a lane for an hour at most, and a
 * wait that is not a usable number is a plain retry on the normal schedule.
 * The lane never crash-loops on a delay the KV queue refuses.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import {
  headerDelayMs,
  MAX_PLATFORM_DELAY_MS,
  platformDelayMs,
} from "../../lib/platform/platform_delay.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import { getLaneRun } from "../../lib/store/delivery/lanes.ts";
import type { SendLog } from "../../lib/store/delivery/send_logs.ts";
import type { Target } from "../../lib/types.ts";
import {
  type ScriptedAnswer,
  startFakeDiscord,
  startFakeTelegram,
} from "../../testing/fake_chat.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  logsOf,
  type RunningWorker,
  settled,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";
import { runWorker } from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const DISCORD: Target = { platform: "discord", channelId: "900" };
const TELEGRAM: Target = { platform: "telegram", chatId: "-100900" };
const YEARS_IN_SECONDS = 99_999_999;

function handlerFailures(running: RunningWorker) {
  return running.lines.filter((line) => String(line.message).includes("handler failed"));
}

/** Waits until the target's lane was passed on to a later queue message (no runner holds it). */
async function handedOff(kv: Kv, target: Target) {
  await waitFor(`the lane of ${laneKeyFor(target)} to be passed on`, async () => {
    const run = await getLaneRun(kv, laneKeyFor(target));
    return run.value !== null && run.value.leaseUntil === undefined &&
      run.value.dueAt > Date.now() + 60_000;
  });
  return (await getLaneRun(kv, laneKeyFor(target))).value!;
}

function telegram429(parameters: string): ScriptedAnswer {
  return {
    status: 429,
    raw:
      `{"ok":false,"error_code":429,"description":"Too Many Requests","parameters":${parameters}}`,
  };
}

Deno.test("platform waits: numbers are clamped to an hour, anything else is no wait", () => {
  assert.equal(platformDelayMs(1.5), 1500);
  assert.equal(platformDelayMs(0), 0);
  assert.equal(platformDelayMs(YEARS_IN_SECONDS), MAX_PLATFORM_DELAY_MS);
  assert.equal(MAX_PLATFORM_DELAY_MS, 3_600_000);
  for (const bad of [-1, Infinity, -Infinity, NaN, "5", null, undefined, {}, [3]]) {
    assert.equal(platformDelayMs(bad), null, String(bad));
  }
  assert.equal(headerDelayMs(" 2.25 "), 2250);
  assert.equal(headerDelayMs("99999999"), MAX_PLATFORM_DELAY_MS);
  for (const bad of [null, "", "-1", "1e999", "Infinity", "NaN", "banana", "0x10", "1,5"]) {
    assert.equal(headerDelayMs(bad), null, String(bad));
  }
});

Deno.test("a 429 asking to wait for years holds each lane for one hour, without a crash loop", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await storeRoutes(kv, [customRoute("alerts", [DISCORD, TELEGRAM])]);
  discord.script("900", [{
    status: 429,
    body: { message: "You are being rate limited.", retry_after: YEARS_IN_SECONDS, global: false },
  }]);
  telegram.script("-100900", [telegram429(`{"retry_after":${YEARS_IN_SECONDS}}`)]);
  await using running = runWorker(kv, deliveryConfig({ discord, telegram }));

  const eventId = await acceptCustom(kv, "Flooded");
  const before = Date.now();
  const runs = [await handedOff(kv, DISCORD), await handedOff(kv, TELEGRAM)];

  for (const run of runs) assert.ok(run.dueAt <= before + MAX_PLATFORM_DELAY_MS + 5_000);
  const logs = await logsOf(kv, eventId);
  assert.equal(logs.length, 2);
  for (const log of logs) {
    assert.equal(log.status, "retrying");
    assert.equal(log.attempts, 1);
    assert.equal(log.httpStatus, 429);
    assert.equal(log.nextAttemptAt! - log.updatedAt, MAX_PLATFORM_DELAY_MS);
  }
  assert.deepEqual(handlerFailures(running), []);
});

Deno.test("a 429 whose wait is not a usable number is a plain retry on the normal schedule", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await storeRoutes(kv, [customRoute("alerts", [DISCORD, TELEGRAM])]);
  discord.script("900", [
    { status: 429, raw: `{"message":"slow down","retry_after":1e999,"global":true}` },
    { status: 429, body: { message: "slow down", retry_after: "soon" } },
    {
      status: 429,
      body: { message: "slow down", retry_after: -5 },
      headers: { "retry-after": "x" },
    },
  ]);
  telegram.script("-100900", [
    telegram429(`{"retry_after":1e999}`),
    telegram429(`{"retry_after":"soon"}`),
    telegram429(`{"retry_after":-1}`),
  ]);
  await using running = runWorker(kv, deliveryConfig({ discord, telegram }));

  const eventId = await acceptCustom(kv, "Eventually");
  const logs: SendLog[] = await settled(kv, eventId, 2);

  for (const log of logs) {
    assert.equal(log.status, "ok", log.platform);
    assert.equal(log.attempts, 4, "three retries from the schedule, then success");
    assert.equal(log.httpStatus, 200);
  }
  assert.equal(discord.received.length, 1);
  assert.equal(telegram.received.length, 1);
  assert.deepEqual(handlerFailures(running), []);
});

Deno.test("an X-RateLimit-Reset-After of years holds the channel for one hour at most", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [customRoute("alerts", [DISCORD])]);
  discord.script("900", [{
    status: 200,
    body: { id: "1", channel_id: "900" },
    headers: {
      "x-ratelimit-limit": "5",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset-after": String(YEARS_IN_SECONDS),
    },
  }]);
  await using running = runWorker(kv, deliveryConfig({ discord }));

  const first = await acceptCustom(kv, "First");
  const second = await acceptCustom(kv, "Second");
  const before = Date.now();
  const run = await handedOff(kv, DISCORD);

  assert.ok(run.dueAt <= before + MAX_PLATFORM_DELAY_MS + 5_000);
  assert.equal((await logsOf(kv, first))[0].status, "ok");
  const [waiting] = await logsOf(kv, second);
  assert.equal(waiting.status, "retrying");
  assert.equal(waiting.attempts, 0, "not sent into an exhausted bucket");
  assert.deepEqual(handlerFailures(running), []);
});
