/**
 * Batch deliver jobs: a group commit adds one job naming its events, and the worker fans
 * them all out (units, events-view records, marks cleared) with each event's guarantees kept:
 * a job run again after a crash midway makes no second unit, an event that throws stays
 * pending with a job of its own while the others finish, and single-event jobs still work.
 */
import type { AtomicOperation, Kv, KvKey } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { createDeliveryWorker } from "../../lib/delivery/worker.ts";
import { toBase64, utf8 } from "../../lib/encoding.ts";
import { loadEvents, saveEvent } from "../../lib/store/delivery/events.ts";
import type { ForgeEvent } from "../../lib/types.ts";
import { getEventRoutes } from "../../lib/store/delivery/event_routes.ts";
import {
  type FanOutJob,
  finishFanOuts,
  isFanOutJob,
  requeueStalledFanOuts,
  requeueUndeliveredJobs,
} from "../../lib/store/delivery/fan_out_jobs.ts";
import { GroupCommit } from "../../lib/store/delivery/group_commit.ts";
import { listGroupEntries } from "../../lib/store/config/groups.ts";
import { eventKey, fanOutPendingKey, undeliveredJobKey } from "../../lib/store/keys.ts";
import { listJobs } from "../../lib/store/delivery/jobs.ts";
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

const TARGET = { platform: "discord", channelId: "500" } as const;

/** Accepts custom events through one group commit; returns their ids in acceptance order. */
async function acceptBatch(kv: Kv, titles: string[]): Promise<string[]> {
  const group = new GroupCommit(kv, { windowMs: 20 });
  const outcomes = await Promise.all(titles.map((title) =>
    group.save({
      provider: "custom",
      kind: "custom",
      scope: { type: "global" },
      receivedAt: Date.now(),
      headers: {},
      body: utf8(JSON.stringify({ message: { title, text: `about ${title}` } })),
    })
  ));
  assert.equal(group.stats().batches, 1, "the events shared one commit");
  return outcomes.map((outcome) => outcome.status === "accepted" ? outcome.eventId : "");
}

/** A worker that runs no job worker: jobs run only when a test calls its handler. */
function fanOnlyWorker(kv: Kv, config: ReturnType<typeof deliveryConfig>) {
  const { log, lines } = captureLog();
  const worker = createDeliveryWorker({ kv, config, log, sweepEveryMs: 0 });
  return { worker, lines, [Symbol.asyncDispose]: () => worker.close() };
}

async function isPending(kv: Kv, eventId: string): Promise<boolean> {
  return (await kv.get(fanOutPendingKey(eventId))).versionstamp !== null;
}

async function teamInternalId(kv: Kv): Promise<string> {
  const entry = (await listGroupEntries(kv)).find((entry) => entry.group.id === "team");
  assert.ok(entry);
  return entry.internalId;
}

/** The deliver jobs waiting in `kv`, in due order (other jobs are ignored). */
async function storedJobs(kv: Kv): Promise<FanOutJob[]> {
  const messages: unknown[] = (await listJobs(kv)).map((job) => job.value.message);
  return messages.filter(isFanOutJob);
}

Deno.test("batch job: every event of a group commit is fanned out, recorded and cleared", async () => {
  await using kv = await openTestKv();
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  await using fan = fanOnlyWorker(kv, deliveryConfig({}));
  const ids = await acceptBatch(kv, ["One", "Two", "Three", "Four"]);
  for (const id of ids) assert.ok(await isPending(kv, id), "pending from its acceptance");

  await fan.worker.handlers.deliver({ type: "deliver", eventIds: ids });

  const internalId = await teamInternalId(kv);
  for (const id of ids) {
    assert.equal((await logsOf(kv, id)).length, 1, "one unit per event");
    assert.equal(await isPending(kv, id), false, "its mark is cleared");
    assert.deepEqual((await getEventRoutes(kv, internalId, id))?.routeIds, ["alerts"]);
  }
  const routed = fan.lines.find((line) => line.message === "events routed");
  assert.deepEqual([routed?.events, routed?.failed, routed?.created], [4, 0, 4]);
});

Deno.test("batch job: accepted together, delivered in acceptance order", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  await using _running = runWorker(kv, deliveryConfig({ discord }));
  const titles = ["First", "Second", "Third", "Fourth", "Fifth"];
  const ids = await acceptBatch(kv, titles);
  for (const id of ids) await settled(kv, id);
  assert.deepEqual(discordTitles(discord), titles);
});

/** `kv` whose commits that clear a pending fan-out fail, as if the process stopped there. */
function crashingBeforeTheMarksClear(kv: Kv): Kv {
  return new Proxy(kv, {
    get(target, property) {
      if (property !== "atomic") {
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => {
        const op = target.atomic();
        let clears = false;
        const wrapped: AtomicOperation = new Proxy(op, {
          get(opTarget, name) {
            const value = Reflect.get(opTarget, name, opTarget);
            if (typeof value !== "function") return value;
            return (...args: unknown[]) => {
              if (name === "delete" && (args[0] as KvKey)[0] === "fan_out_pending") {
                clears = true;
              }
              if (name === "commit" && clears) return Promise.reject(new Error("process stopped"));
              const result = value.apply(opTarget, args);
              return result === opTarget ? wrapped : result;
            };
          },
        });
        return wrapped;
      };
    },
  });
}

Deno.test("batch job: run again after a crash midway, it makes no second unit", async () => {
  await using kv = await openTestKv();
  await storeRoutes(kv, [
    customRoute("alerts", [TARGET, { platform: "discord", channelId: "501" }]),
  ]);
  const ids = await acceptBatch(kv, ["A", "B", "C"]);
  const job = { type: "deliver", eventIds: ids };
  const config = deliveryConfig({});

  const crashed = createDeliveryWorker({
    kv: crashingBeforeTheMarksClear(kv),
    config,
    log: captureLog().log,
    sweepEveryMs: 0,
  });
  await assert.rejects(crashed.handlers.deliver(job), /process stopped/);
  await crashed.close();
  for (const id of ids) {
    assert.equal((await logsOf(kv, id)).length, 2, "the units were made before the crash");
    assert.ok(await isPending(kv, id), "the marks survive the crash");
  }

  await using fan = fanOnlyWorker(kv, config);
  await fan.worker.handlers.deliver(job);
  for (const id of ids) {
    assert.equal((await logsOf(kv, id)).length, 2, "no second unit");
    assert.equal(await isPending(kv, id), false);
  }
  const routed = fan.lines.find((line) => line.message === "events routed");
  assert.deepEqual([routed?.events, routed?.created], [3, 0]);

  // Run once more (a queue redelivery): every mark is gone, so nothing is routed again.
  await fan.worker.handlers.deliver(job);
  assert.equal(fan.lines.filter((line) => line.message === "events routed").length, 1);
});

Deno.test("batch job: an event that throws stays pending with a job of its own; the others finish", async () => {
  await using kv = await openTestKv();
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  const ids = await acceptBatch(kv, ["Fine", "Broken", "Also fine"]);
  const [fine, broken, alsoFine] = ids;
  // Its stored payload no longer matches its record: it cannot be read.
  const record = await kv.get<Record<string, unknown>>(eventKey(broken));
  await kv.set(eventKey(broken), { ...record.value, storedBytes: 1 });
  await using fan = fanOnlyWorker(kv, deliveryConfig({}));

  await fan.worker.handlers.deliver({ type: "deliver", eventIds: ids });

  for (const id of [fine, alsoFine]) {
    assert.equal((await logsOf(kv, id)).length, 1);
    assert.equal(await isPending(kv, id), false);
  }
  assert.equal((await logsOf(kv, broken)).length, 0);
  assert.ok(await isPending(kv, broken), "it keeps its place in the order");
  const jobs = await storedJobs(kv);
  assert.ok(jobs.some((job) => "eventId" in job && job.eventId === broken), "its own job");
  const failed = fan.lines.find((line) => line.message === "events routed");
  assert.equal(failed?.failed, 1);

  // Its own job follows the single-event rules: it throws (the queue retries it) and clears
  // the mark, so it holds no lane back meanwhile.
  await assert.rejects(fan.worker.handlers.deliver({ type: "deliver", eventId: broken }));
  assert.equal(await isPending(kv, broken), false);
});

Deno.test("single-event job: accepted alone, fanned out as before", async () => {
  await using kv = await openTestKv();
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  await using fan = fanOnlyWorker(kv, deliveryConfig({}));
  const eventId = await acceptCustom(kv, "Alone");
  assert.ok(await isPending(kv, eventId));
  await fan.worker.handlers.deliver({ type: "deliver", eventId });
  assert.equal((await logsOf(kv, eventId)).length, 1);
  assert.equal(await isPending(kv, eventId), false);
  const internalId = await teamInternalId(kv);
  assert.deepEqual((await getEventRoutes(kv, internalId, eventId))?.routeIds, ["alerts"]);
});

Deno.test("a parked batch job is re-queued whole, every event marked pending again", async () => {
  await using kv = await openTestKv();
  const job = { type: "deliver", eventIds: ["01AAA", "01AAB", "01AAC"] };
  await kv.set(undeliveredJobKey("01AAA"), job);
  assert.equal(await requeueUndeliveredJobs(kv, 1_000), 1);
  for (const id of job.eventIds) assert.ok(await isPending(kv, id));
  assert.equal((await kv.get(undeliveredJobKey("01AAA"))).versionstamp, null);
  assert.deepEqual(await storedJobs(kv), [job]);
});

Deno.test("the sweep re-queues stalled fan-outs together in one job", async () => {
  await using kv = await openTestKv();
  const stalled = ["01BBA", "01BBB", "01BBC"];
  for (const id of stalled) await kv.set(fanOutPendingKey(id), { since: 1_000 });
  await kv.set(fanOutPendingKey("01BBD"), { since: 99_000 }); // recent: left alone
  assert.equal(await requeueStalledFanOuts(kv, 100_000, 10_000), 3);
  assert.deepEqual(await storedJobs(kv), [{ type: "deliver", eventIds: stalled }]);
  for (const id of stalled) {
    assert.equal((await kv.get<{ since: number }>(fanOutPendingKey(id))).value?.since, 100_000);
  }
});

Deno.test("the sweep's re-queuing commits check at most 10 marks each (a denokv server's limit)", async () => {
  await using kv = await openTestKv();
  const stalled = Array.from({ length: 20 }, (_, index) => `01CC${String(index).padStart(2, "0")}`);
  for (const id of stalled) await kv.set(fanOutPendingKey(id), { since: 1_000 });
  assert.equal(await requeueStalledFanOuts(kv, 100_000, 10_000), 20);
  const jobs = await storedJobs(kv);
  const named = jobs.flatMap((job) => "eventIds" in job ? job.eventIds : [job.eventId]);
  assert.deepEqual(named.toSorted(), stalled, "every stalled event is re-queued once");
  for (const job of jobs) {
    assert.ok("eventIds" in job && job.eventIds.length <= 10, "one check per event named");
  }
});

Deno.test("deliver jobs: both shapes are recognised, malformed ones are not", () => {
  assert.ok(isFanOutJob({ type: "deliver", eventId: "01A" }));
  assert.ok(isFanOutJob({ type: "deliver", eventIds: ["01A", "01B"] }));
  assert.equal(isFanOutJob({ type: "deliver", eventIds: [] }), false);
  assert.equal(isFanOutJob({ type: "deliver", eventIds: [1, 2] }), false);
  assert.equal(isFanOutJob({ type: "deliver", eventIds: Array(65).fill("01A") }), false);
  assert.equal(isFanOutJob({ type: "deliver", eventIds: ["x".repeat(65)] }), false);
  assert.equal(isFanOutJob({ type: "lane", eventIds: ["01A"] }), false);
  assert.equal(isFanOutJob({ type: "deliver", eventId: "01A", eventIds: "01B" }), false);
  assert.equal(isFanOutJob(null), false);
});

Deno.test("finishing fan-outs past one commit's limits writes every record before the mark goes", async () => {
  await using kv = await openTestKv();
  const eventId = "01CCC";
  await kv.set(fanOutPendingKey(eventId), { since: 1 });
  const records = Array.from({ length: 1_200 }, (_, index) => ({
    internalId: `g${index}`,
    record: {
      eventId,
      provider: "custom" as const,
      kind: "custom",
      groupId: `group-${index}`,
      routeIds: [],
      receivedAt: 1,
    },
  }));
  await finishFanOuts(kv, [{ eventId, records }], [], 60_000);
  assert.equal(await isPending(kv, eventId), false);
  for (const index of [0, 599, 1_199]) {
    assert.equal((await getEventRoutes(kv, `g${index}`, eventId))?.groupId, `group-${index}`);
  }
});

Deno.test("batch job: events stored inline and in chunks load together", async () => {
  await using kv = await openTestKv();
  await storeRoutes(kv, [customRoute("alerts", [TARGET])]);
  const small = await acceptCustom(kv, "Small");
  // Random text does not compress: its stored bytes need several chunks.
  const noise = toBase64(crypto.getRandomValues(new Uint8Array(60_000)));
  const outcome = await saveEvent(kv, {
    provider: "custom",
    kind: "custom",
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ message: { title: "Large", text: noise } })),
  });
  assert.equal(outcome.status, "accepted");
  const large = outcome.status === "accepted" ? outcome.eventId : "";
  const loaded = await loadEvents(kv, [small, large, "01UNKNOWN"]);
  const message = (loaded.get(large) as { event: ForgeEvent }).event.payload.message;
  assert.equal((message as { text: string }).text, noise);
  assert.deepEqual(loaded.get("01UNKNOWN"), { event: null });

  await using fan = fanOnlyWorker(kv, deliveryConfig({}));
  await fan.worker.handlers.deliver({ type: "deliver", eventIds: [small, large] });
  for (const id of [small, large]) {
    assert.equal((await logsOf(kv, id)).length, 1);
    assert.equal(await isPending(kv, id), false);
  }
});
