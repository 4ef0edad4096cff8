/**
 * Mentions: a notification naming GitHub users pings their linked Discord users (allowed
 * mentions exactly those users and the route's roles) and links their Telegram users; unlinked
 * users stay plain text; values that are not GitHub logins are never looked up or rendered.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { resolveMentions } from "../../lib/delivery/mentions.ts";
import { telegramMentionLine } from "../../lib/format/mentions.ts";
import { renderTelegram } from "../../lib/format/telegram.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import {
  chatUsersLinkedTo,
  deleteDiscordLink,
  deleteTelegramLink,
  saveDiscordLink,
  saveTelegramLink,
} from "../../lib/store/auth/links.ts";
import type { ForgeEvent, Group, Route } from "../../lib/types.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { fixture } from "../_ingest_helpers.ts";
import { deliveryConfig, runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const ROLE = "123456789012345678";
const DISCORD_USER = "223456789012345678";
const TELEGRAM_USER = "424242";

const ROUTE: Route = {
  id: "reviews",
  name: "reviews",
  enabled: true,
  groupId: "acme",
  filters: [{ type: "event", value: "pull_request" }],
  discordRoleIds: [ROLE],
  targets: [
    { platform: "discord", channelId: "1111" },
    { platform: "telegram", chatId: "-100333" },
  ],
};

/**
 * Delivers the fixture's review request (reviewer `octocat`) through a route of group `acme`,
 * whose members are `members` (GitHub logins) besides its owner; answers what each fake got.
 */
async function deliverReviewRequest(kv: Kv, members: string[] = ["octocat"]) {
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await using _worker = runWorker(kv, deliveryConfig({ discord, telegram }));
  await storeRoutes(kv, [ROUTE]);
  await putGroup(kv, {
    id: "acme",
    name: "acme",
    members: [
      { userId: "1", login: "owner", role: "owner" },
      ...members.map((login, index) => ({
        userId: `${100 + index}`,
        login,
        role: "viewer" as const,
      })),
    ],
  });
  const outcome = await saveEvent(kv, {
    provider: "github",
    kind: "pull_request",
    action: "review_requested",
    deliveryId: "review-1",
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: await fixture("pull_request/review_requested.payload.json"),
  });
  assert.equal(outcome.status, "accepted");
  const logs = await settled(kv, "review-1", 2);
  assert.ok(logs.every((log) => log.status === "ok"));
  assert.equal(discord.received.length, 1);
  assert.equal(telegram.received.length, 1);
  return { discord: discord.received[0].body, telegram: String(telegram.received[0].body.text) };
}

function link(chatUser: string, login: string) {
  return { userId: "583231", login, linkedAt: Date.now(), discordUserId: chatUser };
}

Deno.test("a review request pings the linked Discord user and links the linked Telegram user", async () => {
  await using kv = await openTestKv();
  await saveDiscordLink(kv, link(DISCORD_USER, "Octocat"));
  await saveTelegramLink(kv, {
    telegramUserId: TELEGRAM_USER,
    userId: "583231",
    login: "octocat",
    linkedAt: Date.now(),
  });
  const received = await deliverReviewRequest(kv);
  assert.equal(received.discord.content, `<@&${ROLE}> <@${DISCORD_USER}>`);
  assert.deepEqual(received.discord.allowed_mentions, {
    parse: [],
    roles: [ROLE],
    users: [DISCORD_USER],
  });
  assert.match(received.telegram, /<a href="tg:\/\/user\?id=424242">@octocat<\/a>/);
});

Deno.test("a linked reviewer who is not a member of the route's group is not mentioned: plain login, no ids", async () => {
  await using kv = await openTestKv();
  await saveDiscordLink(kv, link(DISCORD_USER, "Octocat"));
  await saveTelegramLink(kv, {
    telegramUserId: TELEGRAM_USER,
    userId: "583231",
    login: "octocat",
    linkedAt: Date.now(),
  });
  const received = await deliverReviewRequest(kv, ["someone-else"]);
  assert.equal(received.discord.content, `<@&${ROLE}>`);
  assert.deepEqual(received.discord.allowed_mentions, { parse: [], roles: [ROLE] });
  assert.doesNotMatch(JSON.stringify(received.discord), new RegExp(DISCORD_USER));
  assert.match(JSON.stringify(received.discord.embeds), /octocat/);
  assert.doesNotMatch(received.telegram, /tg:\/\/user/);
  assert.doesNotMatch(received.telegram, new RegExp(TELEGRAM_USER));
  assert.match(received.telegram, /octocat/);
});

Deno.test("an unlinked reviewer stays plain text: no user ping, no Telegram user link", async () => {
  await using kv = await openTestKv();
  await saveDiscordLink(kv, link(DISCORD_USER, "someone-else"));
  const received = await deliverReviewRequest(kv);
  assert.equal(received.discord.content, `<@&${ROLE}>`);
  assert.deepEqual(received.discord.allowed_mentions, { parse: [], roles: [ROLE] });
  assert.match(JSON.stringify(received.discord.embeds), /octocat/);
  assert.doesNotMatch(received.telegram, /tg:\/\/user/);
  assert.match(received.telegram, /octocat/);
});

Deno.test("the reverse entry follows the link: written with it, moved on re-link, removed on unlink", async () => {
  await using kv = await openTestKv();
  await saveDiscordLink(kv, link(DISCORD_USER, "Octocat"));
  assert.deepEqual(await chatUsersLinkedTo(kv, "discord", "OCTOCAT"), [DISCORD_USER]);
  await saveDiscordLink(kv, link(DISCORD_USER, "hubot"));
  assert.deepEqual(await chatUsersLinkedTo(kv, "discord", "octocat"), []);
  assert.deepEqual(await chatUsersLinkedTo(kv, "discord", "hubot"), [DISCORD_USER]);
  assert.equal(await deleteDiscordLink(kv, DISCORD_USER), true);
  assert.deepEqual(await chatUsersLinkedTo(kv, "discord", "hubot"), []);
  assert.equal(await deleteDiscordLink(kv, DISCORD_USER), false);

  await saveTelegramLink(kv, {
    telegramUserId: TELEGRAM_USER,
    userId: "1",
    login: "hubot",
    linkedAt: 1,
  });
  assert.deepEqual(await chatUsersLinkedTo(kv, "telegram", "hubot"), [TELEGRAM_USER]);
  assert.deepEqual(await chatUsersLinkedTo(kv, "discord", "hubot"), []);
  assert.equal(await deleteTelegramLink(kv, TELEGRAM_USER), true);
  assert.deepEqual(await chatUsersLinkedTo(kv, "telegram", "hubot"), []);
  const left = await Array.fromAsync(kv.list({ prefix: ["links_by_github_login"] }));
  assert.deepEqual(left, []);
});

const HOSTILE_LOGINS = [
  "<b>octocat</b>",
  'octo"cat',
  "../octocat",
  "octocat\n",
  "octocat\u0000",
  "-octocat",
  "octo--cat",
  "__proto__",
  "o".repeat(40),
  "",
  "tg://user?id=1",
];

function githubEvent(provider: ForgeEvent["provider"] = "github"): ForgeEvent {
  return {
    id: "e1",
    provider,
    kind: "pull_request",
    scope: { type: "global" },
    receivedAt: 0,
    headers: {},
    payload: {},
  };
}

Deno.test("hostile login values are neither looked up nor linked; other forges are not looked up", async () => {
  await using kv = await openTestKv();
  await saveDiscordLink(kv, link(DISCORD_USER, "octocat"));
  for (const login of HOSTILE_LOGINS) {
    await saveDiscordLink(kv, link("323456789012345678", login));
    assert.deepEqual(await chatUsersLinkedTo(kv, "discord", login), [], JSON.stringify(login));
  }
  const everyone: Group = {
    id: "acme",
    name: "acme",
    members: ["octocat", ...HOSTILE_LOGINS].map((login, index) => ({
      userId: String(index),
      login,
      role: "viewer" as const,
    })),
  };
  const mentioned = await resolveMentions(kv, githubEvent(), {
    title: "t",
    mentions: HOSTILE_LOGINS,
  }, [everyone]);
  assert.deepEqual(mentioned, new Map());
  const gitea = await resolveMentions(kv, githubEvent("gitea"), {
    title: "t",
    mentions: ["octocat"],
  }, [everyone]);
  assert.deepEqual(gitea, new Map());
  const github = await resolveMentions(kv, githubEvent(), {
    title: "t",
    mentions: ["octocat"],
  }, [everyone, { ...everyone, id: "others", members: [] }]);
  assert.deepEqual([...github.keys()], ["acme"], "only the group octocat is a member of");
  assert.deepEqual(github.get("acme")?.discordUserIds, [DISCORD_USER]);
});

Deno.test("the Telegram mention line escapes the login and refuses ids that are not numbers", () => {
  assert.equal(
    telegramMentionLine([
      { userId: "42", login: "<i>x</i>" },
      { userId: '1" onclick="x', login: "a" },
      { userId: "42", login: "again" },
      { userId: "7", login: "b&c" },
    ]),
    '<a href="tg://user?id=42">@&lt;i&gt;x&lt;/i&gt;</a>, <a href="tg://user?id=7">@b&amp;c</a>',
  );
  const body = renderTelegram({ title: "Review requested" }, undefined, [
    { userId: "42", login: "octocat" },
  ]);
  assert.equal(
    body.text,
    '<b>Review requested</b>\n<a href="tg://user?id=42">@octocat</a>',
  );
});
