/**
 * Recovery without a restart: the periodic sweep wakes a lane whose runner
 * died holding its lease, puts back a unit its lane lost, re-queues a deliver
 * job the queue gave up on, and runs on one instance at a time; a unit that is
 * only ever answered 429 ends `dead` with the reason.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { createDeliveryWorker } from "../../lib/delivery/worker.ts";
import { laneEntryKey, laneRunKey, undeliveredJobKey } from "../../lib/store/keys.ts";
import { getLaneRun, type LaneRun } from "../../lib/store/delivery/lanes.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import type { Target } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { captureLog } from "../_helpers.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  logsOf,
  runWorker,
  settled,
  storeRoutes,
} from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const TARGET: Target = { platform: "discord", channelId: "300" };
const LANE = laneKeyFor(TARGET);

/** Fans an event out in a worker that listens to no queue: its unit waits in the lane. */
async function unitWaiting(kv: Kv, config: ReturnType<typeof deliveryConfig>) {
  const eventId = await acceptCustom(kv, "Stranded");
  const fanOnly = createDeliveryWorker({ kv, config, log: captureLog().log, sweepEveryMs: 0 });
  await fanOnly.handlers.deliver({ type: "deliver", eventId });
  await fanOnly.close();
  return eventId;
}

Deno.test("sweep: a lane whose runner died holding its lease is taken over", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  const eventId = await unitWaiting(kv, config);
  const run = await getLaneRun(kv, LANE);
  const dead: LaneRun = {
    token: "held-by-a-dead-instance",
    dueAt: Date.now() - 5_000,
    leaseOwner: "gone",
    leaseUntil: Date.now() - 1,
  };
  assert.ok((await kv.atomic().check(run).set(laneRunKey(LANE), dead).commit()).ok);

  await using running = runWorker(kv, config, { sweepEveryMs: 0 });
  const report = await running.worker.sweep();
  assert.equal(report.lanes, 1);
  const [log] = await settled(kv, eventId);
  assert.equal(log.status, "ok");
  assert.deepEqual(discordTitles(discord), ["Stranded"]);
});

Deno.test("sweep: a retrying unit its lane lost is put back and sent once", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  const eventId = await unitWaiting(kv, config);
  const [unit] = await logsOf(kv, eventId);
  await kv.delete(laneEntryKey(LANE, unit.id));
  await kv.delete(laneRunKey(LANE));

  await using running = runWorker(kv, config, { sweepEveryMs: 0, stallMs: 0 });
  const report = await running.worker.sweep();
  assert.equal(report.units, 1);
  const [log] = await settled(kv, eventId);
  assert.equal(log.status, "ok");
  assert.deepEqual(discordTitles(discord), ["Stranded"]);
  assert.equal((await running.worker.sweep()).units, 0, "nothing left to put back");
});

Deno.test("sweep: a deliver job the queue gave up on is re-queued without a restart", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  await using running = runWorker(kv, config, { sweepEveryMs: 0 });
  const parkedId = "01KPARKEDPARKEDPARKEDPARKE";
  const eventId = await acceptCustom(kv, "Parked");
  await settled(kv, eventId);
  await kv.set(undeliveredJobKey(parkedId), { type: "deliver", eventId: parkedId });

  const report = await running.worker.sweep();
  assert.equal(report.jobs, 1);
  assert.equal((await kv.get(undeliveredJobKey(parkedId))).versionstamp, null);
});

Deno.test("sweep: one instance at a time does the work", async () => {
  await using kv = await openTestKv();
  const config = deliveryConfig({});
  const log = captureLog().log;
  const first = createDeliveryWorker({ kv, config, log, sweepEveryMs: 0 });
  const second = createDeliveryWorker({ kv, config, log, sweepEveryMs: 0 });
  try {
    const a = await first.sweep();
    const b = await second.sweep();
    assert.equal(a.lanes, 0, "the first took the sweep's lease");
    assert.equal(b.lanes, null, "the second found it held");
    assert.equal(b.instances, 2, "both instances are counted");
  } finally {
    await first.close();
    await second.close();
  }
});

Deno.test("a unit answered only 429 (retry_after 0) ends dead with the reason", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  const limited = {
    status: 429,
    body: { message: "You are being rate limited.", retry_after: 0, global: false },
  };
  discord.script("300", Array.from({ length: 10 }, () => limited));
  await using _running = runWorker(kv, config, {
    rateLimitBound: { maxMs: 60_000, maxInARow: 4 },
  });
  const eventId = await acceptCustom(kv, "Never accepted");
  const [log] = await settled(kv, eventId);
  assert.equal(log.status, "dead");
  assert.equal(log.attempts, 4);
  assert.match(
    log.error!,
    /^rate limited \(429\) 4 times in a row over \d+ s without being accepted/,
  );
  assert.equal(discord.received.length, 0);
});
