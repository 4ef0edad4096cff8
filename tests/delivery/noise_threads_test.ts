/**
 * Threads: a route with `threads` posts a pull request's first event as its card; later events
 * of the same pull request (a comment, a push to its branch, a CI run naming it, its merge) go
 * into a Discord thread started from the card or as Telegram replies to it, and the merge also
 * replaces the card. Another pull request gets its own card.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { getMessageRef } from "../../lib/store/delivery/message_refs.ts";
import type { Route, Target } from "../../lib/types.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { deliveryConfig, runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const repository = {
  full_name: "octo/app",
  html_url: "https://github.com/octo/app",
  name: "app",
  owner: { login: "octo" },
};
const sender = { login: "alice", html_url: "https://github.com/alice", type: "User" };

function pull(number: number, extra: Record<string, unknown> = {}) {
  return {
    number,
    title: `Change ${number}`,
    html_url: `https://github.com/octo/app/pull/${number}`,
    state: "open",
    user: sender,
    head: { ref: `branch-${number}`, sha: "abc", repo: { full_name: "octo/app" } },
    base: { ref: "main" },
    ...extra,
  };
}

const EVENTS: [string, string | undefined, Record<string, unknown>][] = [
  ["pull_request", "opened", { action: "opened", pull_request: pull(7) }],
  ["issue_comment", "created", {
    action: "created",
    issue: { ...pull(7), pull_request: { url: "x" } },
    comment: { body: "LGTM", html_url: "https://github.com/octo/app/pull/7#c1", user: sender },
  }],
  ["push", undefined, {
    ref: "refs/heads/branch-7",
    before: "a",
    after: "b",
    compare: "https://github.com/octo/app/compare/a...b",
    commits: [{
      id: "b".repeat(40),
      message: "fix",
      url: "https://x.test/c",
      author: { name: "a" },
    }],
  }],
  ["workflow_run", "completed", {
    action: "completed",
    workflow_run: {
      name: "CI",
      status: "completed",
      conclusion: "success",
      html_url: "https://github.com/octo/app/actions/runs/1",
      pull_requests: [{ number: 7 }],
    },
  }],
  ["pull_request", "closed", {
    action: "closed",
    pull_request: pull(7, { state: "closed", merged: true }),
  }],
  ["pull_request", "opened", { action: "opened", pull_request: pull(8) }],
];

function threadedRoute(target: Target): Route {
  return {
    id: "prs",
    name: "PRs",
    enabled: true,
    groupId: "team",
    filters: [{
      type: "event",
      value: ["pull_request", "issue_comment", "push", "workflow_run"],
    }],
    targets: [target],
    threads: true,
  };
}

async function acceptAll(kv: Kv): Promise<string[]> {
  const ids: string[] = [];
  for (const [kind, action, payload] of EVENTS) {
    const outcome = await saveEvent(kv, {
      provider: "github",
      kind,
      action,
      scope: { type: "global" },
      receivedAt: Date.now(),
      headers: {},
      body: utf8(JSON.stringify({ ...payload, repository, sender })),
    });
    assert.equal(outcome.status, "accepted");
    if (outcome.status === "accepted") ids.push(outcome.eventId);
    await settled(kv, ids.at(-1)!, 1);
  }
  return ids;
}

const title = (body: Record<string, unknown>) => (body.embeds as { title: string }[])[0].title;

Deno.test("threads on Discord: a card per pull request, later events in a thread started from it", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [threadedRoute({ platform: "discord", channelId: "100" })]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  await acceptAll(kv);

  const [card, ...rest] = discord.received;
  assert.equal(card.chat, "100");
  assert.equal(title(card.body), "[octo/app] Pull request opened: #7 Change 7");
  assert.deepEqual(discord.threadsStarted, [{
    channel: "100",
    messageId: card.messageId,
    name: "[octo/app] Pull request opened: #7 Change 7",
  }]);
  const thread = card.messageId;
  assert.deepEqual(rest.map((message) => [message.chat, title(message.body)]), [
    [thread, "[octo/app] New comment on pull request #7 Change 7"],
    [thread, "[octo/app] Pushed 1 commit to branch-7"],
    [thread, "[octo/app] Workflow CI succeeded"],
    [thread, "[octo/app] Pull request merged: #7 Change 7"],
    ["100", "[octo/app] Pull request opened: #8 Change 8"],
  ]);
  assert.equal(discord.edits.length, 1, "the merge replaced the card");
  assert.equal(discord.edits[0].chat, "100");
  assert.equal(discord.edits[0].messageId, card.messageId);
  assert.equal(title(discord.edits[0].body), "[octo/app] Pull request merged: #7 Change 7");
  const ref = await getMessageRef(kv, {
    platform: "discord",
    chatId: thread,
    messageId: rest[0].messageId,
  });
  assert.deepEqual(ref?.subject, {
    repository: "octo/app",
    kind: "pull",
    number: 7,
    routeId: "prs",
    groupId: "team",
    groupInternalId: (await readGroupEntry(kv, "team")).entry?.internalId,
  });
});

Deno.test("threads on Telegram: later events are replies to the card, the merge edits it", async () => {
  await using kv = await openTestKv();
  await using telegram = startFakeTelegram();
  await storeRoutes(kv, [threadedRoute({ platform: "telegram", chatId: "-100200" })]);
  await using _worker = runWorker(kv, deliveryConfig({ telegram }));
  await acceptAll(kv);

  const [card, ...rest] = telegram.received;
  assert.equal(card.body.reply_parameters, undefined);
  assert.match(String(card.body.text), /Pull request opened: #7/);
  assert.deepEqual(
    rest.map((message) =>
      (message.body.reply_parameters as { message_id: number } | undefined)?.message_id
    ),
    [
      Number(card.messageId),
      Number(card.messageId),
      Number(card.messageId),
      Number(card.messageId),
      undefined,
    ],
  );
  assert.match(String(rest[3].body.text), /Pull request merged: #7/);
  assert.match(String(rest[4].body.text), /Pull request opened: #8/);
  assert.equal(telegram.edits.length, 1);
  assert.equal(telegram.edits[0].messageId, card.messageId);
  assert.equal(telegram.edits[0].body.chat_id, "-100200");
  assert.match(String(telegram.edits[0].body.text), /Pull request merged: #7/);
});

Deno.test("threads are off by default: every event is its own message in the channel", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const { threads: _off, ...plain } = threadedRoute({ platform: "discord", channelId: "100" });
  await storeRoutes(kv, [plain]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  await acceptAll(kv);
  assert.deepEqual(discord.received.map((message) => message.chat), Array(6).fill("100"));
  assert.equal(discord.threadsStarted.length, 0);
  // Without threads, the card is still edited in place when the pull request is merged.
  assert.equal(discord.edits.length, 1);
});

Deno.test("threads on Discord: a thread that exists already is used; a refused one leaves replies in the channel", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const firstCard = "1000000000000000000";
  discord.addThread(firstCard, "100");
  await storeRoutes(kv, [
    threadedRoute({ platform: "discord", channelId: "100" }),
  ]);
  await using _worker = runWorker(kv, deliveryConfig({ discord }));
  await acceptAll(kv);
  assert.equal(discord.received[0].messageId, firstCard);
  assert.deepEqual(
    discord.received.slice(1, 5).map((message) => message.chat),
    Array(4).fill(firstCard),
  );

  await using other = startFakeDiscord();
  other.script(`thread:${firstCard}`, [{
    status: 403,
    body: { message: "Missing Permissions", code: 50013 },
  }]);
  await using kv2 = await openTestKv();
  await storeRoutes(kv2, [threadedRoute({ platform: "discord", channelId: "100" })]);
  await using _worker2 = runWorker(kv2, deliveryConfig({ discord: other }));
  await acceptAll(kv2);
  assert.deepEqual(other.received.map((message) => message.chat).slice(0, 2), ["100", "100"]);
});
