/**
 * Delivery latency: successes add the time from the event's acceptance to the platform's
 * answer to a per-day histogram, read back as p50 and p95 per day and over the period.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { ulid } from "../../lib/ulid.ts";
import {
  acceptedAt,
  LATENCY_BUCKETS_MS,
  latencyBucket,
  summarizeLatency,
} from "../../lib/store/telemetry/latency.ts";
import { countOutcome, pruneCounters, readMetrics } from "../../lib/store/telemetry/metrics.ts";
import { listGroupEntries } from "../../lib/store/config/groups.ts";
import { putSendLog, type SendLog } from "../../lib/store/delivery/send_logs.ts";
import { type AdminApp, sendLog, startAdminApp, storeSendLogs } from "../_admin_helpers.ts";
import { createDeliveryWorker } from "../../lib/delivery/worker.ts";
import { captureLog, testConfig } from "../_helpers.ts";

const DAY = 24 * 60 * 60 * 1000;
const NOON = Date.parse("2030-03-10T12:00:00Z");

/** A send log of an event accepted at `accepted`, whose outcome is recorded `latency` later. */
function answered(accepted: number, latency: number, fields: Partial<SendLog> = {}): SendLog {
  const eventId = ulid(accepted);
  return sendLog(accepted, {
    id: `${eventId}-${Math.random().toString(16).slice(2, 8)}`,
    eventId,
    createdAt: accepted + latency,
    updatedAt: accepted + latency,
    ...fields,
  });
}

async function record(kv: Kv, logs: SendLog[]) {
  for (const log of logs) {
    await countOutcome(putSendLog(kv.atomic(), log, null, DAY), log, log.updatedAt).commit();
  }
}

Deno.test("latency: a time falls in the first bucket whose bound it does not pass; beyond the last, the open bucket", () => {
  assert.equal(latencyBucket(0), 50);
  assert.equal(latencyBucket(50), 50);
  assert.equal(latencyBucket(51), 100);
  assert.equal(latencyBucket(3_600_000), 3_600_000);
  assert.equal(latencyBucket(3_600_001), Number.MAX_SAFE_INTEGER);
  assert.deepEqual([...LATENCY_BUCKETS_MS].sort((a, b) => a - b), LATENCY_BUCKETS_MS);
});

Deno.test("latency: percentiles interpolate within the bucket that holds the rank", () => {
  assert.deepEqual(summarizeLatency(new Map()), { count: 0 });
  // 10 in (100, 150]: the median is the 5th of 10 there, the p95 the 10th.
  assert.deepEqual(summarizeLatency(new Map([[150, 10]])), { count: 10, p50Ms: 125, p95Ms: 150 });
  // 19 fast, 1 slow: the p95 (19th of 20) is still among the fast ones.
  assert.deepEqual(summarizeLatency(new Map([[100, 19], [5_000, 1]])), {
    count: 20,
    p50Ms: 76,
    p95Ms: 100,
  });
  // Over an hour, the lower bound of the open bucket stands for the value.
  assert.deepEqual(summarizeLatency(new Map([[Number.MAX_SAFE_INTEGER, 2]])), {
    count: 2,
    p50Ms: 3_600_000,
    p95Ms: 3_600_000,
  });
});

Deno.test("latency: the acceptance time is read from the event id; a malformed id uses the fallback", () => {
  assert.equal(acceptedAt(ulid(NOON), 0), NOON);
  assert.equal(acceptedAt("not-a-ulid", 42), 42);
});

Deno.test("latency: successes are counted per UTC day from acceptance to answer; failures add none", async () => {
  await using app = await startAdminApp();
  const { internalId } = await internalIdOf(app, "alpha");
  await record(app.kv, [
    answered(NOON - DAY, 400, { groupInternalId: internalId }),
    answered(NOON - DAY, 450, { groupInternalId: internalId }),
    answered(NOON, 2_500, { groupInternalId: internalId }),
    answered(NOON, 9_000, { groupInternalId: internalId, status: "failed", error: "boom" }),
    answered(NOON, 90_000, { groupId: "beta", groupInternalId: "beta-internal" }),
  ]);
  const metrics = await readMetrics(app.kv, { groupIds: ["alpha"], now: NOON + 1000, days: 2 });
  assert.deepEqual(metrics.latencyByDay, [
    { day: "2030-03-09", count: 2, p50Ms: 400, p95Ms: 500 },
    { day: "2030-03-10", count: 1, p50Ms: 3_000, p95Ms: 3_000 },
  ]);
  assert.deepEqual(metrics.latency, { count: 3, p50Ms: 500, p95Ms: 3_000 });
  const everything = await readMetrics(app.kv, { now: NOON + 1000, days: 2 });
  assert.equal(everything.latency.count, 4, "the instance counts beta's success too");
  const oneDay = await readMetrics(app.kv, { groupIds: ["alpha"], now: NOON + 1000, days: 1 });
  assert.deepEqual(oneDay.latency, { count: 1, p50Ms: 3_000, p95Ms: 3_000 });
});

Deno.test("latency: GET /admin/api/metrics answers it per day, for the caller's groups only", async () => {
  await using app = await startAdminApp();
  const now = Date.now();
  await storeSendLogs(app.kv, [
    answered(now - 60_000, 700),
    answered(now - 60_000, 90_000, { groupId: "beta" }),
  ]);
  const alpha = await app.call("viewer", "GET", "/admin/api/metrics");
  assert.equal(alpha.status, 200);
  assert.deepEqual(alpha.body.latency, { count: 1, p50Ms: 750, p95Ms: 750 });
  assert.deepEqual(alpha.body.latencyByDay.map((day: { count: number }) => day.count), [1]);
  const all = await app.call("superAdmin", "GET", "/admin/api/metrics");
  assert.equal(all.body.latency.count, 2);
  assert.equal(all.body.latency.p95Ms, 90_000);
});

Deno.test("latency: pruning old counters removes old latency days too", async () => {
  await using app = await startAdminApp();
  const old = NOON - 60 * DAY;
  await record(app.kv, [answered(old, 300), answered(NOON, 300)]);
  const pruned = await pruneCounters(app.kv, 30 * DAY, NOON);
  assert.equal(pruned, 4, "one outcome and one latency counter in two scopes");
  const left = await readMetrics(app.kv, { now: NOON, days: 366 });
  assert.deepEqual(left.latencyByDay.map((day) => day.day), ["2030-03-10"]);
});

async function internalIdOf(app: AdminApp, groupId: string) {
  const entry = (await listGroupEntries(app.kv)).find((e) => e.group.id === groupId);
  assert.ok(entry);
  return { internalId: entry.internalId };
}

Deno.test("latency: a long-running instance's sweep prunes old counters once a day", async () => {
  await using app = await startAdminApp();
  const old = NOON - 60 * DAY;
  await record(app.kv, [answered(old, 300), answered(NOON, 300)]);
  let now = NOON;
  const worker = createDeliveryWorker({
    kv: app.kv,
    config: testConfig({ SEND_LOG_RETENTION_DAYS: "30" }),
    log: captureLog().log,
    sweepEveryMs: 0,
    now: () => now,
  });
  try {
    assert.equal((await worker.sweep()).counters, 0, "not within a day of the start-up's pruning");
    now = NOON + DAY;
    assert.equal((await worker.sweep()).counters, 4, "a day later the old days go");
    const left = await readMetrics(app.kv, { now, days: 366 });
    assert.deepEqual(left.latencyByDay.map((day) => day.day), ["2030-03-10"]);
    now = NOON + DAY + 60_000;
    assert.equal((await worker.sweep()).counters, 0, "then not again for a day");
  } finally {
    await worker.close();
  }
});
