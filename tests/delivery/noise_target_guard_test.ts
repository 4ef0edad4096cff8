/**
 * Noise control and target ownership: a digest is posted, edited and closed only into a target
 * its group may still post into. A digest whose target left the group's allowlist, or whose
 * group was deleted, sends nothing to the platform and says why in the log.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { openTestKv } from "../../testing/test_store.ts";
import { replaceAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { applyGroupChanges } from "../../lib/store/config/group_admin.ts";
import { readGroupSet } from "../../lib/store/config/group_set.ts";
import type { SendLog } from "../../lib/store/delivery/send_logs.ts";
import type { Route } from "../../lib/types.ts";
import { type FakeChat, startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  OPERATOR,
  type RunningWorker,
  runWorker,
  settled,
  storeRoutes,
} from "../_delivery_helpers.ts";

const DISCORD = { platform: "discord" as const, channelId: "100" };
const TELEGRAM = { platform: "telegram" as const, chatId: "-100200" };
const NIGHT = { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" };

const QUIET_ROUTE: Route = {
  ...customRoute("night", [DISCORD, TELEGRAM]),
  name: "Night watch",
  quietHours: NIGHT,
};

/** Requests both fakes received, accepted or not. */
function requestsOf(...fakes: FakeChat[]): number {
  return fakes.reduce((sum, fake) => sum + fake.requests(), 0);
}

/** Holds two events of the quiet route (22:30 in Berlin); answers the digests and a clock. */
async function holdTwoEvents(kv: Kv, discord: FakeChat, telegram: FakeChat) {
  await storeRoutes(kv, [QUIET_ROUTE]);
  const realStart = Date.now();
  const clock = { start: Date.parse("2026-01-15T21:30:00Z") };
  const running = runWorker(kv, deliveryConfig({ discord, telegram }), {
    now: () => clock.start + (Date.now() - realStart),
  });
  const held: SendLog[] = [];
  for (const title of ["Nightly build", "Backup done"]) {
    held.push(...await settled(kv, await acceptCustom(kv, title), 2));
  }
  assert.ok(held.every((log) => log.status === "ok" && log.httpStatus === 202 && log.digestId));
  const digestIds = [...new Set(held.map((log) => log.digestId!))];
  assert.equal(digestIds.length, 2);
  const morning = () => {
    clock.start = Date.parse("2026-01-16T06:01:00Z") - (Date.now() - realStart); // 07:01
  };
  return { running, digestIds, morning };
}

async function closeAll(running: RunningWorker, digestIds: string[]) {
  for (const digestId of digestIds) {
    await running.worker.handlers.digest_close({ type: "digest_close", digestId });
  }
}

function refusals(running: RunningWorker, reason = "target not allowed") {
  return running.lines.filter((line) =>
    String(line.message).includes("digest not sent") && String(line.error).includes(reason)
  );
}

Deno.test("a quiet-hours digest whose target left the group's allowlist sends nothing and says why", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  const { running, digestIds, morning } = await holdTwoEvents(kv, discord, telegram);
  await using _running = running;
  assert.equal(requestsOf(discord, telegram), 0, "held while quiet");

  assert.ok((await replaceAllowedTargets(kv, "team", [], OPERATOR)).ok);
  morning();
  await closeAll(running, digestIds);
  assert.equal(requestsOf(discord, telegram), 0, "no request to either platform");
  assert.equal(refusals(running).length, 2, JSON.stringify(running.lines.slice(-4)));
});

/** Deletes group `team` as a super admin does. */
async function deleteTeam(kv: Kv) {
  const set = await readGroupSet(kv);
  const team = set.entries.find((entry) => entry.group.id === "team")!;
  assert.ok(
    await applyGroupChanges(kv, set, [{
      kind: "delete",
      groupId: "team",
      expected: team.versionstamp,
    }], []),
  );
}

Deno.test("a quiet-hours digest of a deleted group sends nothing and says why", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  const { running, digestIds, morning } = await holdTwoEvents(kv, discord, telegram);
  await using _running = running;

  await deleteTeam(kv);
  morning();
  await closeAll(running, digestIds);
  assert.equal(requestsOf(discord, telegram), 0, "no request to either platform");
  const gone = refusals(running, "group deleted; nothing was sent");
  assert.equal(gone.length, 2, JSON.stringify(running.lines.slice(-4)));
});

Deno.test("a quiet-hours digest of a deleted group does not close into a new group with its id", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  const { running, digestIds, morning } = await holdTwoEvents(kv, discord, telegram);
  await using _running = running;

  await deleteTeam(kv);
  await storeRoutes(kv, [QUIET_ROUTE]);
  morning();
  await closeAll(running, digestIds);
  assert.equal(requestsOf(discord, telegram), 0, "the new group's targets get nothing");
  const replaced = refusals(running, "group deleted; nothing was sent");
  assert.equal(replaced.length, 2, JSON.stringify(running.lines.slice(-4)));
});

Deno.test("a burst digest is not edited or closed into a target its group lost", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await storeRoutes(kv, [{
    ...customRoute("burst", [DISCORD, TELEGRAM]),
    name: "Deploys",
    digest: { windowSeconds: 60, threshold: 1 },
  }]);
  let offsetMs = 0;
  await using running = runWorker(kv, deliveryConfig({ discord, telegram }), {
    now: () => Date.now() + offsetMs,
  });
  const direct = await settled(kv, await acceptCustom(kv, "Event 1"), 2);
  assert.ok(direct.every((log) => log.status === "ok" && !log.digestId && log.messageId));
  const logs = await settled(kv, await acceptCustom(kv, "Event 2"), 2);
  assert.ok(logs.every((log) => log.status === "ok" && log.digestId && log.messageId));
  await settled(kv, await acceptCustom(kv, "Event 3"), 2);
  const before = requestsOf(discord, telegram);

  assert.ok((await replaceAllowedTargets(kv, "team", [], OPERATOR)).ok);
  offsetMs = 61_000;
  await closeAll(running, [...new Set(logs.map((log) => log.digestId!))]);
  assert.equal(requestsOf(discord, telegram), before, "no edit reaches either platform");
  assert.equal(refusals(running).length, 2, JSON.stringify(running.lines.slice(-4)));
});
