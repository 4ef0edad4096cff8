/**
 * An attempt's outcome carries the target's new health in its commit
 * (`recordOutcome` in lib/store/delivery/units.ts); a health record changed since the lane read
 * it (a person resumed the target) is left as it is, and the outcome is recorded all the same.
 * A mark of the lane's next unit that cannot commit is dropped first, then the health write.
 */
import assert from "node:assert/strict";
import { getSendLogEntry, putSendLog, type SendLog } from "../../lib/store/delivery/send_logs.ts";
import {
  type HealthWrite,
  readTargetHealth,
  type TargetHealth,
  targetKeyOf,
} from "../../lib/store/delivery/target_health.ts";
import { recordOutcome } from "../../lib/store/delivery/units.ts";
import type { LaneRun } from "../../lib/store/delivery/lanes.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import { laneRunKey, targetHealthKey } from "../../lib/store/keys.ts";
import type { Kv, KvEntry } from "../../lib/store/backend/types.ts";
import { sendLog } from "../_admin_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const DAY = 24 * 60 * 60 * 1000;

/** Stores `log` as a new send log; its entry. */
async function stored(kv: Kv, log: SendLog): Promise<KvEntry<SendLog>> {
  assert.ok((await putSendLog(kv.atomic(), log, null, DAY).commit()).ok);
  const entry = await getSendLogEntry(kv, log.id);
  assert.ok(entry);
  return entry;
}

/**
 * The target of `log` read as failing and then resumed by a person: the health write an
 * outcome would make from that read, and the record as it now stands.
 */
async function resumedMeanwhile(kv: Kv, log: SendLog, now: number) {
  const key = targetKeyOf(log.target);
  const base = { groupId: log.groupId, target: log.target, updatedAt: now };
  const failing: TargetHealth = { ...base, state: "failing", failures: 1, failingSince: now };
  await kv.set(targetHealthKey(log.groupId, key), failing);
  const read = await readTargetHealth(kv, log.groupId, key);
  const resumed: TargetHealth = { ...base, state: "healthy", failures: 0 };
  await kv.set(targetHealthKey(log.groupId, key), resumed);
  const write: HealthWrite = {
    internalId: log.groupId,
    read,
    next: { ...failing, failures: 2, updatedAt: now + 1 },
  };
  return { key, write, resumed };
}

Deno.test("an outcome whose health read went stale is recorded without the health write", async () => {
  await using kv = await openTestKv();
  const now = Date.now();
  const log = sendLog(now, { status: "retrying", attempts: 1 });
  const entry = await stored(kv, log);
  const health = await resumedMeanwhile(kv, log, now);

  const next: SendLog = { ...log, error: "502 Bad Gateway", updatedAt: now + 1 };
  const lane = laneKeyFor(log.target);
  await recordOutcome(kv, lane, entry, next, { logId: log.id, failures: 1 }, now, DAY, {
    health: health.write,
  });
  assert.equal((await getSendLogEntry(kv, log.id))?.value.error, "502 Bad Gateway");
  assert.deepEqual((await readTargetHealth(kv, log.groupId, health.key)).value, health.resumed);
});

Deno.test("an outcome whose next unit's mark and health read both went stale is recorded alone", async () => {
  await using kv = await openTestKv();
  const now = Date.now();
  const log = sendLog(now, { status: "retrying", attempts: 1 });
  const entry = await stored(kv, log);
  const waiting = await stored(kv, sendLog(now + 1, { status: "retrying", attempts: 0 }));
  const lane = laneKeyFor(log.target);
  await kv.set(laneRunKey(lane), { token: "t1", dueAt: now } satisfies LaneRun);
  const run = await kv.get<LaneRun>(laneRunKey(lane)) as KvEntry<LaneRun>;
  const health = await resumedMeanwhile(kv, log, now);
  // The allowlist changed since the target check read it, so the mark cannot commit.
  const basis = { groupId: log.groupId, versionstamp: "00000000000000000001", groupsVersion: null };

  const next: SendLog = { ...log, error: "502 Bad Gateway", updatedAt: now + 1 };
  const marked = await recordOutcome(
    kv,
    lane,
    entry,
    next,
    { logId: log.id, failures: 1 },
    now,
    DAY,
    {
      health: health.write,
      markNext: { run, log: waiting, basis },
    },
  );
  assert.equal(marked, null);
  assert.equal((await getSendLogEntry(kv, log.id))?.value.error, "502 Bad Gateway");
  assert.deepEqual((await readTargetHealth(kv, log.groupId, health.key)).value, health.resumed);
  const nextUnit = await getSendLogEntry(kv, waiting.value.id);
  assert.equal(nextUnit?.value.attempts, 0, "the next unit is unmarked");
});

Deno.test("an outcome of a unit that changed while it was sent is refused", async () => {
  await using kv = await openTestKv();
  const now = Date.now();
  const log = sendLog(now, { status: "retrying", attempts: 1 });
  const entry = await stored(kv, log);
  const moved: SendLog = { ...log, updatedAt: now + 1 };
  assert.ok((await putSendLog(kv.atomic().check(entry), moved, log, DAY).commit()).ok);

  const next: SendLog = { ...log, status: "ok", updatedAt: now + 2 };
  const lane = laneKeyFor(log.target);
  await assert.rejects(
    recordOutcome(kv, lane, entry, next, { logId: log.id, failures: 0 }, now, DAY),
    /changed while sending/,
  );
  assert.equal((await getSendLogEntry(kv, log.id))?.value.updatedAt, now + 1);
});
