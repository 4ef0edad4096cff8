/**
 * Subject messages: edit-in-place messages and thread cards share one record store. Records of
 * the earlier layout (`group_progress_messages`, `thread_cards`, `thread_heads`) are read and
 * moved, so after an upgrade a card is still edited in place and a thread still starts from the
 * card posted before it.
 */
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import type { Kv, KvKey } from "../../lib/store/backend/types.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import {
  progressMessageKey,
  subjectHeadKey,
  subjectMessageKey,
  threadCardKey,
  threadHeadKey,
} from "../../lib/store/keys.ts";
import {
  getSubjectMessage,
  IN_PLACE_LIFETIME_MS,
  saveCard,
  saveFirstSubjectMessage,
  type SubjectMessage,
  subjectOfHead,
  type SubjectPlace,
} from "../../lib/store/delivery/subject_messages.ts";
import type { Route } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { deliveryConfig, runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";

const HOUR_MS = 3_600_000;
const IN_PLACE: SubjectPlace = {
  use: "in_place",
  groupInternalId: "g1",
  platform: "discord",
  place: "100",
  subjectKey: "k".repeat(40),
};
const CARD = {
  use: "thread",
  groupInternalId: "g1",
  routeId: "prs",
  lane: "discord:100",
  subject: "octo/app#7",
} as const;

Deno.test("an edit-in-place record of the earlier layout is read and moved to the new one", async () => {
  await using kv = await openTestKv();
  const legacy = progressMessageKey("g1", "discord", "100", IN_PLACE.subjectKey);
  const old: SubjectMessage = { messageId: "555", editedBy: "u1", stage: 1, updatedAt: 5 };
  await kv.set(legacy, old);
  assert.deepEqual(await getSubjectMessage(kv, IN_PLACE, IN_PLACE_LIFETIME_MS), old);
  assert.equal((await kv.get(legacy)).value, null, "the earlier record is gone");
  const moved = subjectMessageKey("g1", "in_place", "discord", "100", IN_PLACE.subjectKey);
  assert.deepEqual((await kv.get(moved)).value, old, "kept under the new key");
});

Deno.test("a first card is not recorded over a card of the earlier layout", async () => {
  await using kv = await openTestKv();
  const legacy = progressMessageKey("g1", "discord", "100", IN_PLACE.subjectKey);
  await kv.set(legacy, { messageId: "555", updatedAt: 5 });
  const first = { messageId: "777", updatedAt: 9 };
  assert.equal(await saveFirstSubjectMessage(kv, IN_PLACE, first, IN_PLACE_LIFETIME_MS), false);
  assert.equal((await getSubjectMessage(kv, IN_PLACE, IN_PLACE_LIFETIME_MS))?.messageId, "555");
});

Deno.test("a thread card and branch of the earlier layout are read, and a thread id is added", async () => {
  await using kv = await openTestKv();
  await kv.set(threadCardKey("g1", "prs", "discord:100", "octo/app#7"), {
    messageId: "555",
    title: "Change 7",
    createdAt: 5,
  });
  await kv.set(threadHeadKey("g1", "prs", "discord:100", "octo/app@refs/heads/b"), "octo/app#7");
  assert.deepEqual(await getSubjectMessage(kv, CARD, HOUR_MS), {
    messageId: "555",
    title: "Change 7",
    updatedAt: 5,
  });
  assert.equal(
    await subjectOfHead(kv, CARD, "octo/app@refs/heads/b", HOUR_MS),
    "octo/app#7",
  );
  assert.equal(
    (await kv.get(subjectHeadKey("g1", "prs", "discord:100", "octo/app@refs/heads/b"))).value,
    "octo/app#7",
  );
  await saveCard(kv, CARD, { messageId: "999", threadId: "555", updatedAt: 9 }, HOUR_MS);
  assert.deepEqual(await getSubjectMessage(kv, CARD, HOUR_MS), {
    messageId: "555",
    title: "Change 7",
    threadId: "555",
    updatedAt: 5,
  }, "the first card stays; only the thread id is added");
});

const repository = { full_name: "octo/app", html_url: "https://github.com/octo/app" };
const sender = { login: "alice", html_url: "https://github.com/alice", type: "User" };
const pull = (state: string) => ({
  number: 7,
  title: "Change 7",
  html_url: "https://github.com/octo/app/pull/7",
  state,
  user: sender,
  head: { ref: "branch-7", sha: "abc", repo: { full_name: "octo/app" } },
  base: { ref: "main" },
});

function route(threads: boolean): Route {
  return {
    id: "prs",
    name: "PRs",
    enabled: true,
    groupId: "team",
    filters: [{ type: "event", value: ["pull_request", "issue_comment"] }],
    targets: [{ platform: "discord", channelId: "100" }],
    ...(threads ? { threads: true } : {}),
  };
}

async function accept(kv: Kv, kind: string, payload: Record<string, unknown>) {
  const outcome = await saveEvent(kv, {
    provider: "github",
    kind,
    action: payload.action as string,
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ ...payload, repository, sender })),
  });
  assert.equal(outcome.status, "accepted");
  await settled(kv, outcome.status === "accepted" ? outcome.eventId : "", 1);
}

/**
 * Puts every subject message and branch pointer back where the earlier layout kept it, as a
 * store written before the upgrade has them.
 */
async function downgradeRecords(kv: Kv) {
  let moved = 0;
  for await (const entry of kv.list<SubjectMessage>({ prefix: ["subject_messages"] })) {
    const [, gid, use, scope, place, subject] = entry.key as string[];
    const { updatedAt, ...rest } = entry.value;
    const legacy: [KvKey, unknown] = use === "in_place"
      ? [progressMessageKey(gid, "discord", place, subject), entry.value]
      : [threadCardKey(gid, scope, place, subject), { ...rest, createdAt: updatedAt }];
    await kv.atomic().delete(entry.key).set(legacy[0], legacy[1]).commit();
    moved++;
  }
  for await (const entry of kv.list<string>({ prefix: ["subject_heads"] })) {
    const [, gid, routeId, lane, head] = entry.key as string[];
    await kv.atomic().delete(entry.key).set(threadHeadKey(gid, routeId, lane, head), entry.value)
      .commit();
  }
  assert.ok(moved > 0, "there was a record to put back");
}

Deno.test("after an upgrade a card recorded under the earlier layout is still edited in place", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [route(false)]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  await accept(kv, "pull_request", { action: "opened", pull_request: pull("open") });
  await downgradeRecords(kv);
  await accept(kv, "pull_request", { action: "closed", pull_request: pull("closed") });
  assert.equal(discord.edits.length, 1, "the card was edited");
  assert.equal(discord.edits[0].messageId, discord.received[0].messageId);
});

Deno.test("after an upgrade a thread starts from the card recorded under the earlier layout", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [route(true)]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  await accept(kv, "pull_request", { action: "opened", pull_request: pull("open") });
  await downgradeRecords(kv);
  await accept(kv, "issue_comment", {
    action: "created",
    issue: { ...pull("open"), pull_request: { url: "x" } },
    comment: { body: "LGTM", html_url: "https://github.com/octo/app/pull/7#c1", user: sender },
  });
  assert.equal(discord.received.length, 2, "the card, then the comment");
  assert.equal(discord.received[1].chat, discord.received[0].messageId, "in the card's thread");
});
