/**
 * Edit in place, end to end through the delivery worker against the fake platforms: a CI run's
 * three events show as one message edited twice, a pull request's card is edited when it is
 * merged (its buttons switch) while a short notice is posted, a message that is gone is
 * posted anew, and without the settings that let presses reach the app there are no buttons.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { inPlacePlanOf } from "../../lib/delivery/edit_in_place.ts";
import type { ForgeEvent, Route } from "../../lib/types.ts";
import { type FakeChat, startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { fixtureJson } from "../_ingest_helpers.ts";
import {
  BUTTONS_ENV,
  deliveryConfig,
  runWorker,
  settled,
  storeRoutes,
} from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const DISCORD_CHANNEL = "1111";
const TELEGRAM_CHAT = "-100333";

/** Accepts a GitHub event through the store, as the ingress does. */
async function acceptGithub(
  kv: Kv,
  kind: string,
  payload: Record<string, unknown>,
  deliveryId: string,
): Promise<void> {
  const outcome = await saveEvent(kv, {
    provider: "github",
    kind,
    action: typeof payload.action === "string" ? payload.action : undefined,
    deliveryId,
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify(payload)),
  });
  assert.equal(outcome.status, "accepted");
}

function routeFor(event: string): Route {
  return {
    id: event,
    name: event,
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: event }],
    targets: [
      { platform: "discord", channelId: DISCORD_CHANNEL },
      { platform: "telegram", chatId: TELEGRAM_CHAT },
    ],
  };
}

/** The three events of one workflow run: queued, in progress, completed with `conclusion`. */
async function workflowRunEvents(conclusion: string): Promise<Record<string, unknown>[]> {
  const requested = await fixtureJson("workflow_run/requested.payload.json");
  const run = requested.workflow_run as Record<string, unknown>;
  return [
    requested,
    { ...requested, action: "in_progress", workflow_run: { ...run, status: "in_progress" } },
    {
      ...requested,
      action: "completed",
      workflow_run: { ...run, status: "completed", conclusion },
    },
  ];
}

function discordTitle(body: Record<string, unknown>): string {
  return (body.embeds as { title: string }[])[0].title;
}

function discordButtons(body: Record<string, unknown>): string[] {
  const rows = (body.components ?? []) as { components: { label?: string }[] }[];
  return rows.flatMap((row) => row.components.map((item) => item.label ?? "")).filter(Boolean);
}

function telegramButtons(body: Record<string, unknown>): string[] {
  const markup = body.reply_markup as { inline_keyboard: { text: string }[][] } | undefined;
  return (markup?.inline_keyboard ?? []).flat().map((button) => button.text);
}

function only<T>(items: T[], what: string): T {
  assert.equal(items.length, 1, `exactly one ${what}, got ${items.length}`);
  return items[0];
}

async function startAll(env: Record<string, string> = BUTTONS_ENV) {
  const discord = startFakeDiscord();
  const telegram = startFakeTelegram();
  const kv = await openTestKv();
  const worker = runWorker(kv, deliveryConfig({ discord, telegram }, env));
  return {
    discord,
    telegram,
    kv,
    async [Symbol.asyncDispose]() {
      await worker.stop();
      await kv[Symbol.asyncDispose]();
      await discord.close();
      await telegram.close();
    },
  };
}

function editsOf(fake: FakeChat, messageId: string) {
  return fake.edits.filter((edit) => edit.messageId === messageId);
}

Deno.test("a CI run's three events post one message per target, edited twice to the final state", async () => {
  await using env = await startAll();
  await storeRoutes(env.kv, [routeFor("workflow_run")]);
  const events = await workflowRunEvents("success");
  for (const [index, payload] of events.entries()) {
    await acceptGithub(env.kv, "workflow_run", payload, `run-${index}`);
  }
  const logs = [];
  for (const index of events.keys()) logs.push(await settled(env.kv, `run-${index}`, 2));

  const post = only(env.discord.received, "Discord post");
  assert.equal(post.chat, DISCORD_CHANNEL);
  assert.match(discordTitle(post.body), /queued/i);
  const discordEdits = editsOf(env.discord, post.messageId);
  assert.equal(discordEdits.length, 2);
  assert.equal(env.discord.edits.length, 2);
  assert.match(discordTitle(discordEdits[0].body), /running/i);
  assert.match(discordTitle(discordEdits[1].body), /succeeded|success/i);
  assert.equal("nonce" in discordEdits[1].body, false);

  const message = only(env.telegram.received, "Telegram post");
  assert.match(String(message.body.text), /queued/i);
  const telegramEdits = editsOf(env.telegram, message.messageId);
  assert.equal(telegramEdits.length, 2);
  assert.equal(env.telegram.edits.length, 2);
  assert.match(String(telegramEdits[1].body.text), /succeeded|success/i);
  assert.equal(telegramEdits[1].body.parse_mode, "HTML");
  assert.equal(telegramEdits[1].body.message_id, Number(message.messageId));

  const [first, ...later] = logs;
  for (const log of first) {
    assert.equal(log.status, "ok");
    assert.equal(log.edited, undefined);
  }
  for (const log of later.flat()) {
    const posted = log.platform === "discord" ? post.messageId : message.messageId;
    assert.deepEqual(
      { status: log.status, edited: log.edited, messageId: log.messageId, id: log.editedMessageId },
      { status: "ok", edited: true, messageId: posted, id: posted },
    );
  }
});

Deno.test("a pull request card is edited when merged, buttons switched, and a short notice is posted", async () => {
  await using env = await startAll();
  await storeRoutes(env.kv, [routeFor("pull_request")]);
  const opened = await fixtureJson("pull_request/opened.payload.json");
  const closed = await fixtureJson("pull_request/closed.payload.json");
  const merged = {
    ...closed,
    pull_request: {
      ...(closed.pull_request as Record<string, unknown>),
      merged: true,
      merged_at: "2019-05-15T15:20:40Z",
    },
  };
  await acceptGithub(env.kv, "pull_request", opened, "pr-opened");
  await settled(env.kv, "pr-opened", 2);
  await acceptGithub(env.kv, "pull_request", merged, "pr-merged");
  const mergedLogs = await settled(env.kv, "pr-merged", 2);

  assert.equal(env.discord.received.length, 2);
  const [card, notice] = env.discord.received;
  assert.deepEqual(discordButtons(card.body), ["Merge", "Close", "Comment", "Open on GitHub"]);
  const cardEdit = only(editsOf(env.discord, card.messageId), "Discord card edit");
  assert.match(discordTitle(cardEdit.body), /merged/i);
  assert.deepEqual(discordButtons(cardEdit.body), ["Comment", "Open on GitHub"]);
  assert.match(discordTitle(notice.body), /merged/i);
  assert.equal(notice.body.components, undefined);
  const embed = (notice.body.embeds as Record<string, unknown>[])[0];
  assert.equal(embed.description, undefined);
  assert.equal(embed.fields, undefined);

  assert.equal(env.telegram.received.length, 2);
  const [telegramCard, telegramNotice] = env.telegram.received;
  assert.deepEqual(telegramButtons(telegramCard.body), ["Merge", "Close", "React", "Open"]);
  const telegramEdit = only(editsOf(env.telegram, telegramCard.messageId), "Telegram card edit");
  assert.match(String(telegramEdit.body.text), /merged/i);
  assert.deepEqual(telegramButtons(telegramEdit.body), ["React", "Open"]);
  assert.deepEqual(telegramButtons(telegramNotice.body), []);

  for (const log of mergedLogs) {
    const [posted, edited] = log.platform === "discord"
      ? [notice.messageId, card.messageId]
      : [telegramNotice.messageId, telegramCard.messageId];
    assert.deepEqual(
      { status: log.status, messageId: log.messageId, edited: log.edited, id: log.editedMessageId },
      { status: "ok", messageId: posted, edited: true, id: edited },
    );
  }
});

Deno.test("an edit of a deleted message posts a new one, which later events edit", async () => {
  await using env = await startAll();
  await storeRoutes(env.kv, [routeFor("workflow_run")]);
  const [queued, running, done] = await workflowRunEvents("failure");
  await acceptGithub(env.kv, "workflow_run", queued, "gone-0");
  await settled(env.kv, "gone-0", 2);
  const firstDiscord = only(env.discord.received, "Discord post");
  const firstTelegram = only(env.telegram.received, "Telegram post");
  env.discord.deleteMessage(firstDiscord.messageId);
  env.telegram.deleteMessage(firstTelegram.messageId);

  await acceptGithub(env.kv, "workflow_run", running, "gone-1");
  const reposted = await settled(env.kv, "gone-1", 2);
  for (const log of reposted) assert.deepEqual([log.status, log.edited], ["ok", undefined]);
  assert.equal(env.discord.received.length, 2);
  assert.equal(env.telegram.received.length, 2);
  const secondDiscord = env.discord.received[1];
  const secondTelegram = env.telegram.received[1];
  assert.match(discordTitle(secondDiscord.body), /running/i);

  await acceptGithub(env.kv, "workflow_run", done, "gone-2");
  await settled(env.kv, "gone-2", 2);
  assert.equal(env.discord.received.length, 2);
  assert.equal(env.telegram.received.length, 2);
  const discordEdit = only(editsOf(env.discord, secondDiscord.messageId), "Discord edit");
  assert.match(discordTitle(discordEdit.body), /fail/i);
  const telegramEdit = only(editsOf(env.telegram, secondTelegram.messageId), "Telegram edit");
  assert.match(String(telegramEdit.body.text), /fail/i);
});

Deno.test("a rate-limited edit waits the platform's retry_after and is not sent twice", async () => {
  await using env = await startAll();
  await storeRoutes(env.kv, [routeFor("workflow_run")]);
  const [queued, running] = await workflowRunEvents("success");
  await acceptGithub(env.kv, "workflow_run", queued, "rl-0");
  await settled(env.kv, "rl-0", 2);
  env.discord.script(DISCORD_CHANNEL, [{
    status: 429,
    body: { message: "You are being rate limited.", retry_after: 0.05, global: false },
  }]);
  env.telegram.script(TELEGRAM_CHAT, [{
    status: 429,
    body: {
      ok: false,
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 0.05 },
    },
  }]);
  await acceptGithub(env.kv, "workflow_run", running, "rl-1");
  const logs = await settled(env.kv, "rl-1", 2);
  for (const log of logs) {
    assert.deepEqual([log.status, log.edited, log.attempts], ["ok", true, 2]);
  }
  assert.equal(env.discord.received.length, 1);
  assert.equal(env.discord.edits.length, 1);
  assert.equal(env.telegram.received.length, 1);
  assert.equal(env.telegram.edits.length, 1);
});

function eventOf(kind: string, payload: Record<string, unknown>): ForgeEvent {
  return {
    id: "e1",
    provider: "github",
    kind,
    ...(typeof payload.action === "string" ? { action: payload.action } : {}),
    scope: { type: "global" },
    receivedAt: 0,
    headers: {},
    payload,
  };
}

Deno.test("plans: one key per run, suite and deployment; cards by pull request or issue; none for others", async () => {
  const deployment = await fixtureJson("deployment/payload.json");
  const status = await fixtureJson("deployment_status/payload.json");
  const deploymentPlan = await inPlacePlanOf(eventOf("deployment", deployment));
  const statusPlan = await inPlacePlanOf(eventOf("deployment_status", status));
  assert.equal(deploymentPlan?.mode, "progress");
  assert.equal(statusPlan?.key, deploymentPlan?.key);

  const requested = await fixtureJson("check_suite/requested.payload.json");
  const suite = await inPlacePlanOf(eventOf("check_suite", requested));
  const sameSuite = await inPlacePlanOf(
    eventOf("check_suite", { ...requested, action: "completed" }),
  );
  assert.equal(suite?.mode, "progress");
  assert.equal(sameSuite?.key, suite?.key);
  const otherSuite = await inPlacePlanOf(
    eventOf("check_suite", await fixtureJson("check_suite/completed.payload.json")),
  );
  assert.notEqual(otherSuite?.key, suite?.key);

  const opened = await fixtureJson("pull_request/opened.payload.json");
  const card = await inPlacePlanOf(eventOf("pull_request", opened));
  const update = await inPlacePlanOf(eventOf("pull_request", { ...opened, action: "closed" }));
  assert.deepEqual([card?.mode, update?.mode, update?.key], ["card", "card_update", card?.key]);
  const gitea = await inPlacePlanOf({ ...eventOf("pull_request", opened), provider: "gitea" });
  assert.notEqual(gitea?.key, card?.key);

  assert.equal(await inPlacePlanOf(eventOf("push", await fixtureJson("push/payload.json"))), null);
  assert.equal(await inPlacePlanOf(eventOf("issue_comment", { ...opened })), null);
  for (const id of [-1, 1.5, "12a", "1".repeat(30), null, { n: 1 }]) {
    const run = { ...(requested.check_suite as Record<string, unknown>), id };
    assert.equal(
      await inPlacePlanOf(eventOf("check_suite", { ...requested, check_suite: run })),
      null,
      JSON.stringify(id),
    );
  }
});

Deno.test("a close with no card in the chat posts the full message, which becomes the card", async () => {
  await using env = await startAll();
  await storeRoutes(env.kv, [routeFor("pull_request")]);
  const closed = await fixtureJson("pull_request/closed.payload.json");
  const reopened = await fixtureJson("pull_request/reopened.payload.json");
  await acceptGithub(env.kv, "pull_request", closed, "closed-1");
  const first = await settled(env.kv, "closed-1", 2);
  for (const log of first) assert.deepEqual([log.status, log.edited], ["ok", undefined]);
  const card = only(env.discord.received, "Discord card");
  assert.deepEqual(discordButtons(card.body), ["Reopen", "Comment", "Open on GitHub"]);

  await acceptGithub(env.kv, "pull_request", reopened, "reopened-1");
  await settled(env.kv, "reopened-1", 2);
  const edit = only(editsOf(env.discord, card.messageId), "Discord card edit");
  assert.deepEqual(discordButtons(edit.body), ["Merge", "Close", "Comment", "Open on GitHub"]);
  assert.equal(env.discord.received.length, 2);
  const telegramCard = env.telegram.received[0];
  const telegramEdit = only(editsOf(env.telegram, telegramCard.messageId), "Telegram card edit");
  assert.deepEqual(telegramButtons(telegramEdit.body), ["Merge", "Close", "React", "Open"]);
});

Deno.test("without interactions or a Telegram webhook secret, cards and their edits carry no buttons", async () => {
  await using env = await startAll({});
  await storeRoutes(env.kv, [routeFor("pull_request")]);
  const opened = await fixtureJson("pull_request/opened.payload.json");
  const closed = await fixtureJson("pull_request/closed.payload.json");
  await acceptGithub(env.kv, "pull_request", opened, "pr-opened");
  await settled(env.kv, "pr-opened", 2);
  await acceptGithub(env.kv, "pull_request", closed, "pr-closed");
  await settled(env.kv, "pr-closed", 2);

  const [card] = env.discord.received;
  assert.equal(card.body.components, undefined);
  const cardEdit = only(editsOf(env.discord, card.messageId), "Discord card edit");
  assert.deepEqual(cardEdit.body.components, []);
  const [telegramCard] = env.telegram.received;
  assert.equal(telegramCard.body.reply_markup, undefined);
  const telegramEdit = only(editsOf(env.telegram, telegramCard.messageId), "Telegram card edit");
  assert.deepEqual(telegramButtons(telegramEdit.body), []);
});

Deno.test("a CI run's events arriving out of order never take its message back to an earlier state", async () => {
  await using env = await startAll();
  await storeRoutes(env.kv, [routeFor("workflow_run")]);
  const [requested, running, completed] = await workflowRunEvents("failure");
  // GitHub does not promise order: the run is done before its "in progress" event arrives.
  for (const [index, payload] of [requested, completed, running].entries()) {
    await acceptGithub(env.kv, "workflow_run", payload, `late-${index}`);
  }
  const [, , late] = [
    await settled(env.kv, "late-0", 2),
    await settled(env.kv, "late-1", 2),
    await settled(env.kv, "late-2", 2),
  ];

  const post = only(env.discord.received, "Discord post");
  const discordEdits = editsOf(env.discord, post.messageId);
  assert.equal(discordEdits.length, 1, "only the final state is edited in");
  assert.match(discordTitle(discordEdits[0].body), /fail/i);
  const message = only(env.telegram.received, "Telegram post");
  assert.equal(editsOf(env.telegram, message.messageId).length, 1);
  for (const log of late) {
    assert.equal(log.status, "ok");
    assert.equal(log.edited, undefined);
    assert.equal(log.httpStatus, undefined);
    assert.equal(log.skipped, "the message already shows a later state");
  }
});

Deno.test("plans: a progress event's stage comes from its action or its deployment status", async () => {
  const [requested, running, completed] = await workflowRunEvents("success");
  const stages = [];
  for (const payload of [requested, running, completed]) {
    stages.push((await inPlacePlanOf(eventOf("workflow_run", payload)))?.stage);
  }
  assert.deepEqual(stages, [0, 1, 2]);
  const status = await fixtureJson("deployment_status/payload.json");
  assert.equal((status.deployment_status as Record<string, unknown>).state, "success");
  assert.equal((await inPlacePlanOf(eventOf("deployment_status", status)))?.stage, 2);
  const queued = await inPlacePlanOf(
    eventOf("deployment_status", {
      ...status,
      deployment_status: { ...(status.deployment_status as object), state: "queued" },
    }),
  );
  assert.equal(queued?.stage, 0);
  const unknown = await inPlacePlanOf(eventOf("workflow_run", { ...requested, action: "odd" }));
  assert.equal(unknown?.stage, undefined);
  assert.equal(unknown?.mode, "progress");
});
