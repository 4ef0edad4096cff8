/**
 * Target ownership at send time: the delivery worker sends a unit only while its group may
 * post into the target (the channel or chat is on the group's list, a thread is a thread of
 * the route's channel); routes stored before allowlists existed are allowed once.
 */
import assert from "node:assert/strict";
import { createDeliveryWorker } from "../../lib/delivery/worker.ts";
import {
  getAllowedTargets,
  replaceAllowedTargets,
} from "../../lib/store/config/allowed_targets.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import { redeliver } from "../../lib/store/delivery/units.ts";
import { captureLog } from "../_helpers.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  logsOf,
  OPERATOR,
  runWorker,
  settled,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";
import type { SendLog } from "../../lib/store/delivery/send_logs.ts";
import { openTestKv } from "../../testing/test_store.ts";

Deno.test("delivery: a target removed from the group's list is not sent to; the unit ends dead", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await storeRoutes(kv, [
    customRoute("alerts", [
      { platform: "discord", channelId: "100" },
      { platform: "telegram", chatId: "-100200", topicId: 5 },
    ]),
  ]);
  const delisted = await replaceAllowedTargets(
    kv,
    "team",
    [{ platform: "telegram", chatId: "-100200" }],
    OPERATOR,
  );
  assert.deepEqual(delisted.ok && delisted.removed, [{ platform: "discord", channelId: "100" }]);
  await using _worker = runWorker(kv, deliveryConfig({ discord, telegram }));

  const eventId = await acceptCustom(kv, "Deploy");
  const logs = await settled(kv, eventId, 2);
  const refused = logs.find((log) => log.platform === "discord")!;
  assert.equal(refused.status, "dead");
  assert.equal(refused.error, "target not allowed for group");
  assert.equal(refused.attempts, 0);
  assert.equal(logs.find((log) => log.platform === "telegram")!.status, "ok");
  assert.equal(discord.requests(), 0, "nothing reached Discord");
  assert.equal(telegram.received.length, 1);

  const again = await redeliver(kv, eventId);
  assert.deepEqual(again.requeued, [refused.id]);
  const [retried] = (await settled(kv, eventId, 2)).filter((log) => log.platform === "discord");
  assert.equal(retried.status, "dead", "a redelivery is checked again");
  assert.equal(discord.requests(), 0);
});

Deno.test("delivery: a thread is sent to only when it is a thread of the route's channel", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  discord.addThread("801", "999");
  discord.addThread("802", "800");
  await storeRoutes(kv, [
    customRoute("foreign", [{ platform: "discord", channelId: "800", threadId: "801" }]),
    customRoute("own", [{ platform: "discord", channelId: "800", threadId: "802" }]),
    customRoute("unknown", [{ platform: "discord", channelId: "800", threadId: "803" }]),
  ]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));

  const eventId = await acceptCustom(kv, "Release");
  let logs: SendLog[] = [];
  await waitFor("two units final and the unknown thread's held", async () => {
    logs = await logsOf(kv, eventId);
    const unknown = logs.find((log) => log.routeId === "unknown");
    return logs.length === 3 && /paused/.test(unknown?.error ?? "") &&
      logs.filter((log) => log.status !== "retrying").length === 2;
  });
  const foreign = logs.find((log) => log.routeId === "foreign")!;
  assert.equal(foreign.status, "dead");
  assert.equal(foreign.error, "target not allowed for group: 801 is not a thread of channel 800");
  assert.equal(logs.find((log) => log.routeId === "own")!.status, "ok");
  assert.deepEqual(discordTitles(discord, "802"), ["Release"]);
  assert.deepEqual(discordTitles(discord, "801"), [], "nothing posted into the foreign thread");
  // Discord's 404 for the thread is a permanent refusal: the target is paused, its message held.
  const unknown = logs.find((log) => log.routeId === "unknown")!;
  assert.equal(unknown.status, "retrying");
  assert.equal(unknown.httpStatus, 404);
  assert.match(unknown.error ?? "", /paused/);
});

Deno.test("delivery: routes stored before target ownership keep delivering, allowed once", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const { log } = captureLog();
  await putGroup(kv, {
    id: "team",
    name: "Team",
    members: [{ userId: "1", login: "owner", role: "owner" }],
  });
  const stored = await replaceRoutes(kv, [
    customRoute("alerts", [{ platform: "discord", channelId: "100" }]),
  ]);
  assert.ok(stored.ok);
  await using running = runWorker(kv, deliveryConfig({ discord }));
  await running.worker.upkeep();
  const eventId = await acceptCustom(kv, "Upgrade");
  const [delivered] = await settled(kv, eventId);
  assert.equal(delivered.status, "ok");

  const [allowed] = (await getAllowedTargets(kv, "team")).targets;
  assert.deepEqual(allowed.target, { platform: "discord", channelId: "100" });
  assert.equal(allowed.via, "upgrade");
  const [audit] = await listAuditEntries(kv, { groupId: "team" });
  assert.equal(audit.action, "targets.allow");
  assert.deepEqual(audit.actor, { userId: "system", login: "system" });

  await replaceAllowedTargets(kv, "team", [], OPERATOR);
  const restarted = createDeliveryWorker({ kv, config: deliveryConfig({ discord }), log });
  await restarted.upkeep();
  restarted.close();
  const later = await acceptCustom(kv, "After removal");
  const [refused] = await settled(kv, later);
  assert.equal(refused.status, "dead", "a target removed after the upgrade stays removed");
  assert.deepEqual(discordTitles(discord), ["Upgrade"]);
});
