/**
 * An attempt's outcome carries the target's new health in its commit
 * (`recordOutcome` in lib/store/delivery/units.ts); a health record changed since the lane read
 * it (a person resumed the target) is left as it is, and the outcome is recorded all the same.
 */
import assert from "node:assert/strict";
import { getSendLogEntry, putSendLog, type SendLog } from "../../lib/store/delivery/send_logs.ts";
import {
  readTargetHealth,
  type TargetHealth,
  targetKeyOf,
} from "../../lib/store/delivery/target_health.ts";
import { recordOutcome } from "../../lib/store/delivery/units.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import { targetHealthKey } from "../../lib/store/keys.ts";
import { sendLog } from "../_admin_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const DAY = 24 * 60 * 60 * 1000;

Deno.test("an outcome whose health read went stale is recorded without the health write", async () => {
  await using kv = await openTestKv();
  const now = Date.now();
  const log = sendLog(now, { status: "retrying", attempts: 1 });
  assert.ok((await putSendLog(kv.atomic(), log, null, DAY).commit()).ok);
  const stored = await getSendLogEntry(kv, log.id);
  assert.ok(stored);
  const key = targetKeyOf(log.target);
  const base = { groupId: log.groupId, target: log.target, updatedAt: now };
  const failing: TargetHealth = { ...base, state: "failing", failures: 1, failingSince: now };
  await kv.set(targetHealthKey(log.groupId, key), failing);
  const read = await readTargetHealth(kv, log.groupId, key);
  const resumed: TargetHealth = { ...base, state: "healthy", failures: 0 };
  await kv.set(targetHealthKey(log.groupId, key), resumed); // a person resumed it meanwhile

  const next: SendLog = { ...log, error: "502 Bad Gateway", updatedAt: now + 1 };
  const lane = laneKeyFor(log.target);
  await recordOutcome(kv, lane, stored, next, { logId: log.id, failures: 1 }, now, DAY, {
    health: {
      internalId: log.groupId,
      read,
      next: { ...failing, failures: 2, updatedAt: now + 1 },
    },
  });
  assert.equal((await getSendLogEntry(kv, log.id))?.value.error, "502 Bad Gateway");
  assert.deepEqual((await readTargetHealth(kv, log.groupId, key)).value, resumed);
});
