/**
 * What a group's messages remember (thread cards, messages edited in place, the records buttons
 * act on) belongs to the group, not to its id: a group created with the id of a deleted group
 * posts its own messages and never edits into, replies under or acts through the old group's.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { applyGroupChanges } from "../../lib/store/config/group_admin.ts";
import { readGroupEntry, readGroupSet } from "../../lib/store/config/group_set.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { getMessageRef, saveMessageRef } from "../../lib/store/delivery/message_refs.ts";
import type { Route } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { deliveryConfig, runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const repository = {
  full_name: "octo/app",
  html_url: "https://github.com/octo/app",
  name: "app",
  owner: { login: "octo" },
};
const sender = { login: "alice", html_url: "https://github.com/alice", type: "User" };
const CHANNEL = "100";

function pull(state: "open" | "closed") {
  return {
    number: 7,
    title: "Change 7",
    html_url: "https://github.com/octo/app/pull/7",
    state,
    user: sender,
    head: { ref: "branch-7", sha: "abc", repo: { full_name: "octo/app" } },
    base: { ref: "main" },
  };
}

function route(threads: boolean): Route {
  return {
    id: "prs",
    name: "PRs",
    enabled: true,
    groupId: "team",
    filters: [{ type: "event", value: ["pull_request", "workflow_run"] }],
    targets: [{ platform: "discord", channelId: CHANNEL }],
    ...(threads ? { threads: true } : {}),
  };
}

async function deliver(kv: Kv, kind: string, payload: Record<string, unknown>) {
  const outcome = await saveEvent(kv, {
    provider: "github",
    kind,
    action: String(payload.action),
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ ...payload, repository, sender })),
  });
  assert.equal(outcome.status, "accepted");
  const [log] = await settled(kv, outcome.status === "accepted" ? outcome.eventId : "", 1);
  assert.equal(log.status, "ok", log.error);
  return log;
}

const opened = { action: "opened", pull_request: pull("open") };
const closed = { action: "closed", pull_request: pull("closed") };

function run(action: "in_progress" | "completed") {
  return {
    action,
    workflow_run: {
      id: 55,
      name: "CI",
      status: action,
      ...(action === "completed" ? { conclusion: "success" } : {}),
      html_url: "https://github.com/octo/app/actions/runs/55",
      pull_requests: [],
    },
  };
}

/** Deletes group `team`, then creates a new `team` with the same route and target. */
async function recreateTeam(kv: Kv, routes: Route[], owners?: string[]) {
  const set = await readGroupSet(kv);
  const old = set.entries.find((entry) => entry.group.id === "team")!;
  const changes = [{ kind: "delete" as const, groupId: "team", expected: old.versionstamp }];
  assert.ok(await applyGroupChanges(kv, set, changes, []));
  await storeRoutes(kv, routes, owners);
  const fresh = (await readGroupSet(kv)).entries.find((entry) => entry.group.id === "team")!;
  assert.notEqual(fresh.internalId, old.internalId);
  // The worker's route cache sees the new set within its poll.
  await new Promise((resolve) => setTimeout(resolve, 600));
}

Deno.test("a new group with a deleted group's id posts its own card instead of using the old thread card", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [route(true)]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  await deliver(kv, "pull_request", opened);
  assert.equal(discord.received.length, 1, "the old group's card");

  await recreateTeam(kv, [route(true)]);
  await deliver(kv, "pull_request", closed);
  assert.equal(discord.received.length, 2);
  assert.equal(discord.received[1].chat, CHANNEL, "a new card in the channel, not a thread reply");
  assert.deepEqual(discord.threadsStarted, [], "no thread started from the old card");
  assert.deepEqual(discord.edits, [], "the old card is not edited");
});

Deno.test("a new group with a deleted group's id posts anew instead of editing the old group's messages", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [route(false)], ["octo"]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  const card = await deliver(kv, "pull_request", opened);
  await deliver(kv, "workflow_run", run("in_progress"));
  assert.equal(discord.received.length, 2);
  const oldPlace = { platform: "discord" as const, chatId: CHANNEL, messageId: card.messageId! };
  assert.equal((await getMessageRef(kv, oldPlace))?.subject.number, 7, "the old card is tracked");

  await recreateTeam(kv, [route(false)], ["octo"]);
  const update = await deliver(kv, "pull_request", closed);
  await deliver(kv, "workflow_run", run("completed"));
  assert.deepEqual(discord.edits, [], "neither the old card nor the old run's message is edited");
  assert.equal(discord.received.length, 4, "the card and the run are posted anew");
  assert.equal(await getMessageRef(kv, oldPlace), null, "the old group's card acts for no one");
  const newPlace = { ...oldPlace, messageId: update.messageId! };
  assert.equal((await getMessageRef(kv, newPlace))?.subject.groupId, "team", "the new card does");
});

Deno.test("a notification record without the group's internal id is read only for a group created before it was sent", async () => {
  await using kv = await openTestKv();
  const createdBefore = Date.now();
  await putGroup(kv, { id: "team", name: "team", members: [] });
  const { internalId } = (await readGroupEntry(kv, "team")).entry!;
  const subject = { repository: "octo/app", kind: "pull" as const, number: 7, routeId: "prs" };
  const place = (messageId: string) => ({ platform: "discord" as const, chatId: "1", messageId });
  await saveMessageRef(kv, place("10"), { ...subject, groupId: "team" }, createdBefore - 60_000);
  await saveMessageRef(kv, place("11"), { ...subject, groupId: "team" }, Date.now() + 1);
  await saveMessageRef(kv, place("12"), { ...subject, groupId: "team", groupInternalId: "#other" });
  await saveMessageRef(kv, place("13"), {
    ...subject,
    groupId: "team",
    groupInternalId: internalId,
  });
  assert.equal(await getMessageRef(kv, place("10")), null, "sent before this group existed");
  assert.equal((await getMessageRef(kv, place("11")))?.subject.number, 7);
  assert.equal(await getMessageRef(kv, place("12")), null, "sent by another group");
  assert.equal((await getMessageRef(kv, place("13")))?.subject.number, 7);
});
