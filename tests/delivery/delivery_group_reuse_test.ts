/**
 * A group created with a deleted group's id is another tenant (a new internal id): the deleted
 * group's units that are still waiting, or that are redelivered by hand before the sweep removed
 * them, are never sent, even into a target the new group allows. They end `dead` unsent.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { replaceAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { applyGroupChanges, renameGroup } from "../../lib/store/config/group_admin.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { signCustomBody } from "../../lib/providers/custom.ts";
import { readGroupSet } from "../../lib/store/config/group_set.ts";
import { redeliver } from "../../lib/store/delivery/units.ts";
import type { Group, Route } from "../../lib/types.ts";
import { newAuditEntry } from "../../lib/store/telemetry/audit.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { openTestKv } from "../../testing/test_store.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  jobsDone,
  logsOf,
  OPERATOR,
  runWorker,
  settled,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";
import { jsonBytes, onlyEventId, send, testDeps, webhookRequest } from "../_ingest_helpers.ts";

const ROUTE: Route = customRoute("alerts", [{ platform: "discord", channelId: "100" }]);
const GROUP_GONE = "group deleted; nothing was sent";

/** Deletes group `team`, then creates a new `team` allowing the same target with the same route. */
async function recreateTeam(kv: Kv): Promise<void> {
  const set = await readGroupSet(kv);
  const old = set.entries.find((entry) => entry.group.id === "team")!;
  const changes = [{ kind: "delete" as const, groupId: "team", expected: old.versionstamp }];
  assert.ok(await applyGroupChanges(kv, set, changes, []));
  await storeRoutes(kv, [ROUTE]);
  const fresh = (await readGroupSet(kv)).entries.find((entry) => entry.group.id === "team")!;
  assert.notEqual(fresh.internalId, old.internalId);
}

/** Accepts a custom event on group `team`'s own webhook (signed with its secret); its id. */
async function acceptOnTeamWebhook(kv: Kv, title: string, text: string): Promise<string> {
  const secret = await regenerateGroupSecret(kv, "team", Date.now());
  const body = jsonBytes({ message: { title, text } });
  const headers = { "x-switchyard-signature": await signCustomBody(secret, body) };
  const accepted = await send(testDeps(kv), webhookRequest(body, headers, "/webhook/team"), "team");
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  return await onlyEventId(kv);
}

/** Renames group `team` to `crew`. */
async function renameTeamToCrew(kv: Kv): Promise<void> {
  const audit = (group: Group) =>
    newAuditEntry({ actor: OPERATOR, action: "group.rename", groupId: group.id }, Date.now());
  assert.ok((await renameGroup(kv, { from: "team", to: "crew" }, audit)).ok);
}

/** Waits until the event's only unit failed its first attempt and waits for a retry. */
async function firstAttemptFailed(kv: Kv, eventId: string): Promise<void> {
  await waitFor("the first attempt to fail", async () => {
    const [log] = await logsOf(kv, eventId);
    return log?.status === "retrying" && log.attempts === 1 && log.error !== undefined;
  });
}

Deno.test("group reuse: a deleted group's unit redelivered after its id was created again is not sent", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [ROUTE]);
  assert.ok((await replaceAllowedTargets(kv, "team", [], OPERATOR)).ok);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  const eventId = await acceptCustom(kv, "Old secret");
  const [refused] = await settled(kv, eventId);
  assert.equal(refused.status, "dead");

  await recreateTeam(kv);
  const again = await redeliver(kv, eventId);
  assert.deepEqual(again.requeued, [refused.id], "the old unit is put back in its lane");
  const [after] = await settled(kv, eventId);
  assert.equal(after.status, "dead");
  assert.equal(after.error, GROUP_GONE);
  assert.equal(discord.requests(), 0, "nothing reached the new group's channel");
});

Deno.test("group reuse: a deleted group's unit still waiting for a retry is not sent once its id was created again", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [ROUTE]);
  discord.script("100", [{ status: 500, body: { message: "try later" } }]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }), { backoffMs: [1_500] });
  const eventId = await acceptCustom(kv, "Old secret");
  await firstAttemptFailed(kv, eventId);

  await recreateTeam(kv);
  const [ended] = await settled(kv, eventId);
  assert.equal(ended.status, "dead");
  assert.equal(ended.error, GROUP_GONE);
  assert.equal(ended.attempts, 1, "no attempt after the group was deleted");
  assert.equal(discord.received.length, 0, "nothing reached the new group's channel");
});

Deno.test("group reuse: an event a deleted group's webhook accepted enters no group once its id was created again", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [ROUTE]);
  const eventId = await acceptOnTeamWebhook(kv, "Old secret", "for the old group only");

  // The fan-out job waits (no worker yet) while the group is deleted and created again.
  await recreateTeam(kv);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  await jobsDone(kv);
  assert.deepEqual(await logsOf(kv, eventId), [], "no unit made for the new group's route");
  assert.equal(discord.requests(), 0, "nothing reached the new group's channel");
});

Deno.test("group reuse: an event a renamed group's webhook accepted reaches that group, not a newcomer with its old id", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [ROUTE]);
  const eventId = await acceptOnTeamWebhook(kv, "Renamed", "for the renamed group");

  // Before the fan-out: `team` becomes `crew`, and a new `team` posts into another channel.
  await renameTeamToCrew(kv);
  await storeRoutes(kv, [
    { ...ROUTE, groupId: "crew" },
    customRoute("alerts", [{ platform: "discord", channelId: "200" }]),
  ]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  await jobsDone(kv);
  const logs = await settled(kv, eventId);
  assert.deepEqual(logs.map((log) => [log.groupId, log.status]), [["crew", "ok"]]);
  assert.deepEqual(discord.received.map((message) => message.chat), ["100"]);
});

Deno.test("group reuse: a renamed group's unit waiting for a retry is sent under its new id, and a newcomer with the old id gets nothing", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [ROUTE]);
  discord.script("100", [{ status: 500, body: { message: "try later" } }]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }), { backoffMs: [1_500] });
  const eventId = await acceptCustom(kv, "Before the rename");
  await firstAttemptFailed(kv, eventId);

  // While the unit waits, `team` becomes `crew`, and a new `team` allows the same channel.
  await renameTeamToCrew(kv);
  await storeRoutes(kv, [{ ...ROUTE, groupId: "crew" }, ROUTE]);

  const [ended] = await settled(kv, eventId);
  assert.equal(ended.status, "ok", ended.error);
  assert.equal(ended.attempts, 2);
  assert.deepEqual(discord.received.map((message) => message.chat), ["100"], "sent once");
});
