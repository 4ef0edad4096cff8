/**
 * Units held for a paused target whose group was then deleted: the delivery sweep ends them
 * (`failed`, their log saying the group was deleted) in bounded commits checked against the
 * group set, sends nothing for them, and goes on after a crash; the held units of a group that
 * still exists stay held, untouched by the sweep.
 */
import assert from "node:assert/strict";
import type { AtomicOperation, Kv, KvKey, KvU64 } from "../../lib/store/backend/types.ts";
import type { Target } from "../../lib/types.ts";
import { createDeliveryWorker } from "../../lib/delivery/worker.ts";
import { applyGroupChanges } from "../../lib/store/config/group_admin.ts";
import { readGroupEntry, readGroupSet } from "../../lib/store/config/group_set.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { newAuditEntry } from "../../lib/store/telemetry/audit.ts";
import { getSendLogEntry, type SendLog } from "../../lib/store/delivery/send_logs.ts";
import { createUnit } from "../../lib/store/delivery/units.ts";
import { holdUnit, readTargetHealth, targetKeyOf } from "../../lib/store/delivery/target_health.ts";
import { deliveryCounterKey, heldUnitKey, laneEntryKey } from "../../lib/store/keys.ts";
import { utcDay } from "../../lib/store/telemetry/metrics.ts";
import { MAX_CHECKS_PER_COMMIT } from "../../lib/store/commit_limits.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import { ulid } from "../../lib/ulid.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { captureLog } from "../_helpers.ts";
import { commitRecordingKv } from "../_kv_commits.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  logsOf,
  runWorker,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";

const KEPT = { platform: "discord", channelId: "700" } satisfies Target;
const GONE = { platform: "discord", channelId: "701" } satisfies Target;
const OWNER = { userId: "1", login: "owner" };
const UNKNOWN_CHANNEL = { status: 404, body: { message: "Unknown Channel" } };
const DAY_MS = 24 * 3_600_000;

async function internalIdOf(kv: Kv, groupId: string): Promise<string> {
  const { entry } = await readGroupEntry(kv, groupId);
  assert.ok(entry, `group ${groupId}`);
  return entry.internalId;
}

/** Deletes `groupId` as `DELETE /admin/api/groups/:id` does, with its audit entry. */
async function deleteGroup(kv: Kv, groupId: string): Promise<void> {
  const set = await readGroupSet(kv);
  const entry = set.entries.find((e) => e.group.id === groupId)!;
  const audit = newAuditEntry({ actor: OWNER, action: "group.delete", groupId }, Date.now());
  assert.ok(
    await applyGroupChanges(kv, set, [
      { kind: "delete", groupId, expected: entry.versionstamp },
    ], [audit]),
  );
}

/** Waits until every unit of `eventIds` (one per group) is held for its paused target. */
async function allHeld(kv: Kv, eventIds: string[]) {
  await waitFor("the units to be held", async () => {
    const logs = (await Promise.all(eventIds.map((id) => logsOf(kv, id)))).flat();
    return logs.length === 2 * eventIds.length &&
      logs.every((log) => log.status === "retrying" && /paused/.test(log.error ?? ""));
  });
}

/** The held entry of `log` (by the group's internal id `internalId`). */
function heldKeyOf(log: SendLog, internalId: string): KvKey {
  return heldUnitKey(internalId, targetKeyOf(log.target), log.id);
}

async function stamp(kv: Kv, key: KvKey): Promise<string | null> {
  return (await kv.get(key)).versionstamp;
}

/**
 * Two groups whose channels the bot lost, each with the units of two events held. Then `gone`
 * is deleted and created again by the same id, allowed the same channel (a new group: a new
 * internal id), and the clock moves on past the sweep's stall time.
 */
async function pausedThenDeleted() {
  const kv = await openTestKv();
  const discord = startFakeDiscord();
  const routes = [customRoute("alerts", [KEPT]), customRoute("gone", [GONE], "gone")];
  await storeRoutes(kv, routes);
  discord.script(KEPT.channelId, [UNKNOWN_CHANNEL]);
  discord.script(GONE.channelId, [UNKNOWN_CHANNEL]);
  let offsetMs = 0;
  const running = runWorker(kv, deliveryConfig({ discord }), {
    now: () => Date.now() + offsetMs,
  });
  const events = [await acceptCustom(kv, "One"), await acceptCustom(kv, "Two")];
  await allHeld(kv, events);
  const teamId = await internalIdOf(kv, "team");
  const goneId = await internalIdOf(kv, "gone");
  const logs = (await Promise.all(events.map((id) => logsOf(kv, id)))).flat();
  const keptLogs = logs.filter((log) => log.groupId === "team");
  const goneLogs = logs.filter((log) => log.groupId === "gone");
  await deleteGroup(kv, "gone");
  await storeRoutes(kv, routes);
  assert.notEqual(await internalIdOf(kv, "gone"), goneId, "created again: a new group");
  offsetMs = 60_000;
  return { kv, discord, running, teamId, goneId, keptLogs, goneLogs };
}

Deno.test("held units: the sweep ends a deleted group's held units as group deleted and sends nothing for them", async () => {
  const { kv, discord, running, goneId, goneLogs } = await pausedThenDeleted();
  await using _kv = kv;
  await using _discord = discord;
  try {
    const requestsBefore = discord.requests();
    const report = await running.worker.sweep();
    assert.equal(report.held, 2, "both held units ended");
    assert.equal(report.units, 0, "no held unit was put back in its lane");
    for (const held of goneLogs) {
      const log = await getSendLogEntry(kv, held.id);
      assert.equal(log?.value.status, "failed");
      assert.match(log?.value.error ?? "", /^group deleted/);
      assert.equal(await stamp(kv, heldKeyOf(held, goneId)), null, "no longer held");
      assert.equal(await stamp(kv, laneEntryKey(laneKeyFor(GONE), held.id)), null, "not in a lane");
    }
    assert.equal((await running.worker.sweep()).held, 0, "nothing is ended twice");
    await running.stop();
    assert.equal(discord.requests(), requestsBefore, "nothing reached the platform");
    assert.equal(discord.received.length, 0);
  } finally {
    await running.stop();
  }
});

Deno.test("held units: a held unit of a group that still exists stays held, untouched by the sweep", async () => {
  const { kv, discord, running, teamId, keptLogs } = await pausedThenDeleted();
  await using _kv = kv;
  await using _discord = discord;
  try {
    const before = await Promise.all(keptLogs.map(async (kept) => ({
      held: await stamp(kv, heldKeyOf(kept, teamId)),
      log: (await getSendLogEntry(kv, kept.id))?.versionstamp,
    })));
    assert.ok(before.every((stamps) => stamps.held !== null));
    const report = await running.worker.sweep();
    assert.equal(report.units, 0, "a held unit is not put back in its lane");
    await running.stop();
    for (const [index, kept] of keptLogs.entries()) {
      assert.equal(await stamp(kv, heldKeyOf(kept, teamId)), before[index].held, "held, untouched");
      const log = await getSendLogEntry(kv, kept.id);
      assert.equal(log?.versionstamp, before[index].log, "its log is untouched");
      assert.equal(log?.value.status, "retrying");
      assert.equal(await stamp(kv, laneEntryKey(laneKeyFor(KEPT), kept.id)), null, "not in a lane");
    }
    assert.equal((await readTargetHealth(kv, teamId, targetKeyOf(KEPT))).value?.state, "broken");
    assert.equal(discord.received.length, 0);
  } finally {
    await running.stop();
  }
});

/** A unit of group `groupId` (internal id `internalId`) held for its paused target `GONE`. */
async function seedHeld(kv: Kv, groupId: string, internalId: string, now: number, n: number) {
  const id = `${ulid(now - 60_000 + n)}-${n.toString(16).padStart(4, "0")}`;
  const log: SendLog = {
    id,
    deliveryId: id,
    eventId: id.slice(0, 26),
    event: "custom",
    provider: "github",
    groupId,
    groupInternalId: internalId,
    routeId: "gone",
    platform: "discord",
    target: GONE,
    status: "retrying",
    attempts: 0,
    createdAt: now - 60_000,
    updatedAt: now - 60_000,
  };
  const lane = laneKeyFor(GONE);
  assert.ok(await createUnit(kv, { log, body: { content: "x" }, lane }, now - 60_000, DAY_MS));
  const entry = await getSendLogEntry(kv, id);
  const health = await readTargetHealth(kv, internalId, targetKeyOf(GONE));
  const next = { ...log, error: "held: paused" };
  assert.ok(await holdUnit(kv, lane, entry!, next, { health }, now - 60_000, DAY_MS));
  return next;
}

/** A delivery worker that only sweeps (no job runs), on the clock `now`. */
function sweeperOnly(kv: Kv, now: () => number) {
  return createDeliveryWorker({
    kv,
    config: deliveryConfig({}),
    log: captureLog().log,
    sweepEveryMs: 0,
    stallMs: 1_000,
    now,
  });
}

Deno.test("held units: many go in commits within the limits, and a crash mid-way goes on at the next sweep", async () => {
  await using store = await openTestKv();
  const now = Date.now();
  await putGroup(store, { id: "gone", name: "gone", members: [{ ...OWNER, role: "owner" }] });
  const goneId = await internalIdOf(store, "gone");
  const TOTAL = 11;
  const held: SendLog[] = [];
  for (let n = 0; n < TOTAL; n++) held.push(await seedHeld(store, "gone", goneId, now, n));
  await deleteGroup(store, "gone");

  const { kv: recorded, commits } = commitRecordingKv(store);
  // the process stops before its second commit that ends held units
  let heldCommits = 0;
  const crashing = new Proxy(recorded, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "atomic") return typeof value === "function" ? value.bind(target) : value;
      return () => {
        const op = target.atomic();
        let ends = false;
        const wrapped: AtomicOperation = new Proxy(op, {
          get(opTarget, name) {
            const method = Reflect.get(opTarget, name, opTarget);
            if (typeof method !== "function") return method;
            return (...args: unknown[]) => {
              if (name === "delete" && (args[0] as KvKey)[0] === "target_held") ends = true;
              if (name === "commit" && ends && ++heldCommits === 2) {
                return Promise.reject(new Error("the process stopped"));
              }
              const result = method.apply(opTarget, args);
              return result === opTarget ? wrapped : result;
            };
          },
        });
        return wrapped;
      };
    },
  }) as Kv;

  const first = sweeperOnly(crashing, () => now);
  try {
    await assert.rejects(() => first.sweep(), /the process stopped/);
  } finally {
    await first.close();
  }
  const ended = async () => {
    const logs = await Promise.all(held.map((log) => getSendLogEntry(store, log.id)));
    return logs.filter((log) => log?.value.status === "failed").length;
  };
  const afterCrash = await ended();
  assert.ok(afterCrash > 0 && afterCrash < TOTAL, `${afterCrash} ended before the crash`);

  // another process, later (the crashed sweep's lease has run out)
  const second = sweeperOnly(recorded, () => now + 10_000);
  try {
    let total = 0;
    for (let sweep = 0; sweep < 5 && await ended() < TOTAL; sweep++) {
      total += (await second.sweep()).held ?? 0;
    }
    assert.equal(total, TOTAL - afterCrash);
  } finally {
    await second.close();
  }
  assert.equal(await ended(), TOTAL);
  for (const log of held) assert.equal(await stamp(store, heldKeyOf(log, goneId)), null);
  const counted = await store.get<KvU64>(
    deliveryCounterKey(
      { type: "group", internalId: goneId },
      utcDay(now),
      "discord",
      "custom",
      "failed",
    ),
  );
  assert.equal(counted.value?.value, BigInt(TOTAL), "each unit's outcome is counted once");
  const ending = commits.filter((commit) => commit.written.some((key) => key[0] === "target_held"));
  assert.ok(ending.length >= 3, `${ending.length} commits`);
  for (const commit of commits) {
    assert.ok(commit.checks <= MAX_CHECKS_PER_COMMIT, `${commit.checks} checks`);
  }
});
