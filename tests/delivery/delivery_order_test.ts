/**
 * Per-target order across crashes: a unit of a newer event is not sent while
 * an older event's fan-out is still pending (its deliver job parked after its
 * last attempt and re-queued, or in flight when the process stopped), and a
 * fan-out that never finishes holds lanes back for a bounded time only.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { mustWaitForOlderEvents, ORDER_WAIT_MS } from "../../lib/delivery/order_gate.ts";
import type { DeliveryContext } from "../../lib/delivery/context.ts";
import { requeueUndeliveredJobs } from "../../lib/store/delivery/fan_out_jobs.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import { createDeliveryWorker } from "../../lib/delivery/worker.ts";
import { eventKey, fanOutPendingKey, jobsPrefix, undeliveredJobKey } from "../../lib/store/keys.ts";
import { getLaneRun } from "../../lib/store/delivery/lanes.ts";
import type { Target } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { captureLog } from "../_helpers.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  runWorker,
  settled,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";
import { openTestKv, type TestKv } from "../../testing/test_store.ts";

const TARGET: Target = { platform: "discord", channelId: "1000" };
const LANE = laneKeyFor(TARGET);

/**
 * A KV holding two accepted events, `Older` then `Newer`, with no deliver
 * job for either: the state a crash leaves once their jobs have been claimed.
 */
async function acceptedWithoutJobs(): Promise<{ kv: TestKv; older: string; newer: string }> {
  await using scratch = await openTestKv();
  const older = await acceptCustom(scratch, "Older");
  const newer = await acceptCustom(scratch, "Newer");
  const kv = await openTestKv();
  for await (const entry of scratch.list({ prefix: [] })) {
    if (entry.key[0] !== jobsPrefix()[0]) await kv.set(entry.key, entry.value);
  }
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  return { kv, older, newer };
}

/** Runs the newer event's fan-out in a process that then stops: its unit waits in the lane. */
async function fanOutBeforeCrash(
  kv: Kv,
  config: ReturnType<typeof deliveryConfig>,
  eventId: string,
) {
  const crashed = createDeliveryWorker({ kv, config, log: captureLog().log });
  await crashed.handlers.deliver({ type: "deliver", eventId });
  crashed.close();
  return (await getLaneRun(kv, LANE)).value!.token;
}

/** Waits until the lane's queue message from before the crash has run (the lane was taken). */
async function laneMessageHandled(kv: Kv, token: string) {
  await waitFor("the lane message to be handled", async () => {
    const run = (await getLaneRun(kv, LANE)).value;
    return run?.token !== token || run.leaseOwner !== undefined;
  });
}

Deno.test("after a crash, a parked older event still reaches the target before a newer one", async () => {
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  const { kv, older, newer } = await acceptedWithoutJobs();
  try {
    // Its failed attempts cleared its pending mark before the queue gave up and parked it.
    await kv.delete(fanOutPendingKey(older));
    await kv.set(undeliveredJobKey(older), { type: "deliver", eventId: older });
    const token = await fanOutBeforeCrash(kv, config, newer);

    await using running = runWorker(kv, config);
    await laneMessageHandled(kv, token);
    await running.worker.upkeep();
    await settled(kv, older);
    await settled(kv, newer);

    assert.deepEqual(discordTitles(discord), ["Older", "Newer"]);
  } finally {
    await kv[Symbol.asyncDispose]();
  }
});

Deno.test("after a crash, an older deliver job redelivered late still goes first", async () => {
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  const { kv, older, newer } = await acceptedWithoutJobs();
  try {
    const token = await fanOutBeforeCrash(kv, config, newer);

    await using running = runWorker(kv, config);
    await laneMessageHandled(kv, token);
    await running.worker.handlers.deliver({ type: "deliver", eventId: older });
    await settled(kv, older);
    await settled(kv, newer);

    assert.deepEqual(discordTitles(discord), ["Older", "Newer"]);
  } finally {
    await kv[Symbol.asyncDispose]();
  }
});

Deno.test("a fan-out that never finishes holds newer units back for a bounded time only", async () => {
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  const { kv, newer } = await acceptedWithoutJobs();
  try {
    let shift = 0;
    await using _running = runWorker(kv, config, { now: () => Date.now() + shift });
    shift = ORDER_WAIT_MS + 1_000;
    await fanOutBeforeCrash(kv, config, newer);
    await settled(kv, newer);

    assert.deepEqual(discordTitles(discord), ["Newer"]);
  } finally {
    await kv[Symbol.asyncDispose]();
  }
});

Deno.test("an older event whose fan-out fails does not hold newer units back", async () => {
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  const { kv, older, newer } = await acceptedWithoutJobs();
  try {
    // Its stored payload no longer matches its record: it cannot be read.
    const record = await kv.get<Record<string, unknown>>(eventKey(older));
    await kv.set(eventKey(older), { ...record.value, storedBytes: 1 });
    await using running = runWorker(kv, config);
    await assert.rejects(running.worker.handlers.deliver({ type: "deliver", eventId: older }));
    await running.worker.handlers.deliver({ type: "deliver", eventId: newer });
    await settled(kv, newer);

    assert.deepEqual(discordTitles(discord), ["Newer"]);
    assert.equal((await kv.get(fanOutPendingKey(older))).versionstamp, null);
  } finally {
    await kv[Symbol.asyncDispose]();
  }
});

Deno.test("a parked older job re-queued between the order gate's two reads still holds the lane", async () => {
  const { kv, older, newer } = await acceptedWithoutJobs();
  try {
    await kv.delete(fanOutPendingKey(older));
    await kv.set(undeliveredJobKey(older), { type: "deliver", eventId: older });
    // The re-queue commits right after the gate's first read, before its second.
    let reads = 0;
    const racing = new Proxy(kv, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property !== "list") return typeof value === "function" ? value.bind(target) : value;
        return (...args: Parameters<Kv["list"]>) => {
          if (reads++ === 1) {
            return (async function* () {
              await requeueUndeliveredJobs(target);
              yield* target.list(...args);
            })();
          }
          return target.list(...args);
        };
      },
    }) as Kv;
    const now = Date.now();
    const ctx = { kv: racing, now: () => now, startedAt: now } as unknown as DeliveryContext;
    assert.equal(await mustWaitForOlderEvents(ctx, newer), true);
  } finally {
    await kv[Symbol.asyncDispose]();
  }
});
