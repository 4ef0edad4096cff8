/**
 * The overview's figures add up: a message counts once, by its final state (a failure that was
 * sent again and then delivered is a delivery, not a failure and a delivery), "Failed" counts
 * the same units "Recent failures" lists, and the latency axis is labelled at even, round steps.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { latencyAxis, niceTicks } from "../../components/logs/chart_ticks.ts";
import { readMetrics } from "../../lib/store/telemetry/metrics.ts";
import { getSendLogEntry, type SendLog } from "../../lib/store/delivery/send_logs.ts";
import { recordOutcome, redeliver } from "../../lib/store/delivery/units.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import { historyLog, storeFailedUnit, WEB_DISCORD } from "../_logs_fixtures.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const RETENTION = 30 * DAY;
const NOON = Date.parse("2030-03-10T12:00:00Z");

function failedLog(at: number, deliveryId: string): SendLog {
  return historyLog(at, 0, {
    groupId: "web",
    routeId: "pr-bugs",
    target: WEB_DISCORD,
    deliveryId,
    event: "pull_request",
    action: "opened",
    status: "failed",
    attempts: 1,
    httpStatus: 403,
    error: "Discord 403: Missing Permissions",
  });
}

/** Records the next attempt of a unit that redelivery put back in its lane. */
async function answerAgain(kv: Kv, logId: string, status: "ok" | "failed", at: number) {
  const entry = await getSendLogEntry(kv, logId);
  assert.ok(entry && entry.value.status === "retrying");
  const next: SendLog = {
    ...entry.value,
    status,
    attempts: entry.value.attempts + 1,
    updatedAt: at,
  };
  await recordOutcome(
    kv,
    laneKeyFor(entry.value.target),
    entry,
    next,
    { logId, failures: 0 },
    at,
    RETENTION,
  );
}

Deno.test("overview: a failed message sent again and delivered counts once, as delivered", async () => {
  await using kv = await Deno.openKv(":memory:");
  const failed = failedLog(NOON - 2 * DAY, "gh-once");
  await storeFailedUnit(kv, failed);
  assert.deepEqual(
    (await redeliver(kv, "gh-once", { now: NOON - DAY })).requeued,
    [failed.id],
  );
  await answerAgain(kv, failed.id, "ok", NOON - DAY + MINUTE);

  for (const scope of [{}, { groupInternalIds: ["web"] }]) {
    const metrics = await readMetrics(kv, { ...scope, now: NOON });
    assert.deepEqual(metrics.totals, { total: 1, ok: 1, failed: 0, dead: 0, retrying: 0 });
    assert.equal(metrics.failureRate, 0);
    assert.deepEqual(metrics.recentFailures, []);
    assert.deepEqual(
      metrics.byDay.map(({ day, total, ok, failed }) => ({ day, total, ok, failed })),
      [
        { day: "2030-03-08", total: 0, ok: 0, failed: 0 },
        { day: "2030-03-09", total: 1, ok: 1, failed: 0 },
      ],
    );
    assert.deepEqual(metrics.byPlatform.discord, {
      total: 1,
      ok: 1,
      failed: 0,
      dead: 0,
      retrying: 0,
    });
  }
});

Deno.test("overview: a message sent again that fails again is one failure, on the day of its last attempt", async () => {
  await using kv = await Deno.openKv(":memory:");
  const failed = failedLog(NOON - 2 * DAY, "gh-twice");
  await storeFailedUnit(kv, failed);
  await redeliver(kv, "gh-twice", { now: NOON - DAY });
  await answerAgain(kv, failed.id, "failed", NOON - DAY + MINUTE);

  const metrics = await readMetrics(kv, { now: NOON });
  assert.deepEqual(metrics.totals, { total: 1, ok: 0, failed: 1, dead: 0, retrying: 0 });
  assert.equal(metrics.failureRate, 1);
  assert.deepEqual(metrics.recentFailures.map((log) => log.id), [failed.id]);
  assert.deepEqual(metrics.byDay.find((day) => day.day === "2030-03-09")?.failed, 1);
});

Deno.test("overview: Failed counts exactly the units Recent failures lists for the period", async () => {
  await using kv = await Deno.openKv(":memory:");
  const before = failedLog(NOON - 10 * DAY, "gh-before");
  const within = failedLog(NOON - 2 * DAY, "gh-within");
  await storeFailedUnit(kv, before);
  await storeFailedUnit(kv, within);

  const week = await readMetrics(kv, { days: 7, now: NOON });
  assert.equal(week.totals.failed + week.totals.dead, 1);
  assert.deepEqual(week.recentFailures.map((log) => log.id), [within.id]);

  const month = await readMetrics(kv, { days: 30, now: NOON });
  assert.equal(month.totals.failed + month.totals.dead, 2);
  assert.deepEqual(month.recentFailures.map((log) => log.id), [within.id, before.id]);
});

Deno.test("overview: axis ticks start at 0 and rise in equal round steps past the highest value", () => {
  assert.deepEqual(niceTicks(0), [0, 1]);
  assert.deepEqual(niceTicks(10), [0, 2, 4, 6, 8, 10]);
  assert.deepEqual(niceTicks(730), [0, 200, 400, 600, 800]);
  assert.deepEqual(niceTicks(2_300), [0, 500, 1_000, 1_500, 2_000, 2_500]);
  assert.deepEqual(niceTicks(12_500), [0, 5_000, 10_000, 15_000]);
  for (const max of [0.3, 7, 49, 101, 999, 4_321, 61_000, 3_700_000]) {
    const ticks = niceTicks(max);
    assert.equal(ticks[0], 0);
    assert.ok(ticks.at(-1)! >= max, `${max}: ${ticks}`);
    assert.ok(ticks.length >= 3 && ticks.length <= 6, `${max}: ${ticks}`);
    const step = ticks[1];
    const mantissa = step / 10 ** Math.floor(Math.log10(step));
    assert.ok([1, 2, 5].some((m) => Math.abs(m - mantissa) < 1e-9), `${max}: step ${step}`);
    ticks.forEach((tick: number, index: number) => assert.ok(Math.abs(tick - index * step) < 1e-9));
  }
});

Deno.test("overview: latency axis labels share one unit and read as even steps", () => {
  assert.deepEqual(latencyAxis(730).labels, ["0", "200 ms", "400 ms", "600 ms", "800 ms"]);
  assert.deepEqual(latencyAxis(2_300).labels, ["0", "0.5 s", "1 s", "1.5 s", "2 s", "2.5 s"]);
  assert.deepEqual(latencyAxis(95_000).labels, ["0", "20 s", "40 s", "60 s", "80 s", "100 s"]);
  assert.deepEqual(latencyAxis(400_000).labels, ["0", "2 min", "4 min", "6 min", "8 min"]);
  assert.deepEqual(latencyAxis(3 * 3_600_000).labels, ["0", "1 h", "2 h", "3 h"]);
  assert.deepEqual(latencyAxis(0).labels, ["0", "2 ms", "4 ms", "6 ms", "8 ms", "10 ms"]);
  assert.equal(latencyAxis(730).top, 800);
});
