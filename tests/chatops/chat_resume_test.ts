/**
 * `/gh resume` in the chat: an owner or admin of the group whose target here is paused sends
 * what it held, in order, through the lane (the console's Resume, audited `via: "chat"`); a
 * viewer is refused and nothing is sent; a chat where nothing is paused is told so; Discord's
 * `resume` subcommand does the same. Only the groups allowed in the place are looked at: another
 * group's held target there is neither read nor resumed.
 */
import assert from "node:assert/strict";
import type { Kv, KvKey } from "../../lib/store/backend/types.ts";
import type { Config } from "../../lib/config.ts";
import type { Interaction } from "../../lib/chatops/discord/interaction.ts";
import type { Target } from "../../lib/types.ts";
import { answerCommand } from "../../lib/chatops/discord/commands.ts";
import { TelegramBot } from "../../lib/chatops/telegram/bot.ts";
import { handleUpdate } from "../../lib/chatops/telegram/dispatch.ts";
import { readUpdate } from "../../lib/chatops/telegram/update.ts";
import { createTelegramAdapter } from "../../lib/telegram/adapter.ts";
import { saveDiscordLink, saveTelegramLink } from "../../lib/store/auth/links.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { readTargetHealth, type TargetHealth } from "../../lib/store/delivery/target_health.ts";
import { targetHealthPrefix } from "../../lib/store/keys.ts";
import { readCountingKv } from "../_kv_commits.ts";
import { type FakeChat, startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { captureLog } from "../_helpers.ts";
import { CHANNEL, command, DISCORD_USER } from "../discord_app.ts";
import { messageUpdate, textMessage } from "../_telegram_helpers.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  jobsDone,
  logsOf,
  runWorker,
  settled,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";

const CHAT_ID = -1001234;
const CHAT: Target = { platform: "telegram", chatId: String(CHAT_ID) };
const OWNER_TELEGRAM = 777;
const VIEWER_TELEGRAM = 778;
const KICKED = {
  status: 403,
  body: { ok: false, error_code: 403, description: "Forbidden: bot was kicked from the chat" },
};

/** Links the group's owner (member `1`) and a viewer (member `2`, added here) on Telegram. */
async function linkPeople(kv: Kv) {
  const group = await getGroup(kv, "team");
  assert.ok(group);
  await putGroup(kv, {
    ...group,
    members: [...group.members, { userId: "2", login: "viewer", role: "viewer" }],
  });
  const people: [number, string, string][] = [
    [OWNER_TELEGRAM, "1", "owner"],
    [VIEWER_TELEGRAM, "2", "viewer"],
  ];
  for (const [telegramUserId, userId, login] of people) {
    assert.ok(
      await saveTelegramLink(kv, {
        telegramUserId: String(telegramUserId),
        userId,
        login,
        linkedAt: Date.now(),
      }),
    );
  }
}

/** Sends `/gh resume` from `userId` in the chat, as the webhook would hand it over. */
async function sayResume(kv: Kv, config: Config, userId: number) {
  const work = readUpdate(messageUpdate(textMessage("/gh resume", { chatId: CHAT_ID, userId })));
  assert.ok(work);
  const { log } = captureLog();
  const adapter = createTelegramAdapter(config);
  await handleUpdate({ kv, config, log, bot: new TelegramBot(adapter), adapter }, work);
}

/** Texts the fake received in the chat: notifications, and replies (which quote a message). */
function chatTexts(telegram: FakeChat) {
  const here = telegram.received.filter((message) => message.chat === String(CHAT_ID));
  return {
    replies: here.filter((m) => m.body.reply_parameters).map((m) => String(m.body.text)),
    notifications: here.filter((m) => !m.body.reply_parameters).map((m) => String(m.body.text)),
  };
}

async function allHeld(kv: Kv, eventIds: string[]) {
  await waitFor("the units to be held", async () => {
    const logs = (await Promise.all(eventIds.map((id) => logsOf(kv, id)))).flat();
    return logs.length === eventIds.length &&
      logs.every((log) => log.status === "retrying" && /paused/.test(log.error ?? ""));
  });
}

/** A Telegram chat whose bot was kicked, holding three messages; the worker is running. */
async function pausedChat(kv: Kv, telegram: FakeChat) {
  await storeRoutes(kv, [customRoute("alerts", [CHAT])]);
  await linkPeople(kv);
  telegram.script(String(CHAT_ID), [KICKED]);
  const first = await acceptCustom(kv, "One");
  await allHeld(kv, [first]);
  const rest = [await acceptCustom(kv, "Two"), await acceptCustom(kv, "Three")];
  await allHeld(kv, [first, ...rest]);
  return [first, ...rest];
}

Deno.test("/gh resume on Telegram: an owner resumes the chat and the held messages arrive in order", async () => {
  await using kv = await openTestKv();
  await using telegram = startFakeTelegram();
  const config = deliveryConfig({ telegram });
  await using _running = runWorker(kv, config);
  const held = await pausedChat(kv, telegram);
  assert.deepEqual(chatTexts(telegram).notifications, [], "nothing got through while paused");

  await sayResume(kv, config, OWNER_TELEGRAM);
  const logs = (await Promise.all(held.map((id) => settled(kv, id)))).flat();
  assert.deepEqual(logs.map((log) => log.status), ["ok", "ok", "ok"]);
  const { replies, notifications } = chatTexts(telegram);
  assert.equal(notifications.length, 3);
  notifications.forEach((text, i) => assert.match(text, new RegExp(["One", "Two", "Three"][i])));
  assert.equal(replies.length, 1);
  assert.match(replies[0], /3 held messages are on the way/);
  const [audit] = await listAuditEntries(kv, { groupId: "team", limit: 1 });
  assert.equal(audit.action, "target.resume");
  assert.equal(audit.detail?.via, "chat");
  assert.equal(audit.actor?.login, "owner");
});

Deno.test("/gh resume on Telegram: a viewer is refused and nothing is sent", async () => {
  await using kv = await openTestKv();
  await using telegram = startFakeTelegram();
  const config = deliveryConfig({ telegram });
  await using _running = runWorker(kv, config);
  const held = await pausedChat(kv, telegram);

  await sayResume(kv, config, VIEWER_TELEGRAM);
  const { replies } = chatTexts(telegram);
  assert.equal(replies.length, 1);
  assert.match(replies[0], /Only an owner or admin/);
  await jobsDone(kv);
  assert.deepEqual(chatTexts(telegram).notifications, [], "the worker ran every job; none sent");
  const logs = (await Promise.all(held.map((id) => logsOf(kv, id)))).flat();
  assert.ok(logs.every((log) => log.status === "retrying"), "still held");
  const [audit] = await listAuditEntries(kv, { groupId: "team", limit: 1 });
  assert.notEqual(audit.action, "target.resume");
});

Deno.test("/gh resume on Telegram: a chat where nothing is paused is told so", async () => {
  await using kv = await openTestKv();
  await using telegram = startFakeTelegram();
  const config = deliveryConfig({ telegram });
  await storeRoutes(kv, [customRoute("alerts", [CHAT])]);
  await linkPeople(kv);

  await sayResume(kv, config, OWNER_TELEGRAM);
  assert.deepEqual(chatTexts(telegram).replies, ["Nothing is paused in this chat."]);
});

Deno.test("/gh resume on Discord: an owner resumes the channel and the held messages arrive in order", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await using _running = runWorker(kv, config);
  const channel = "300000000000000003";
  await storeRoutes(kv, [customRoute("alerts", [{ platform: "discord", channelId: channel }])]);
  assert.ok(
    await saveDiscordLink(kv, {
      discordUserId: DISCORD_USER,
      userId: "1",
      login: "owner",
      linkedAt: Date.now(),
    }),
  );
  discord.script(channel, [{ status: 403, body: { message: "Missing Access", code: 50001 } }]);
  const first = await acceptCustom(kv, "One");
  await allHeld(kv, [first]);
  const second = await acceptCustom(kv, "Two");
  await allHeld(kv, [first, second]);

  const { log } = captureLog();
  const answer = await answerCommand(
    { kv, config, log },
    command("resume") as unknown as Interaction,
  );
  const data = (answer.response as { data?: { content?: string; flags?: number } }).data;
  assert.equal(data?.flags, 64);
  assert.match(String(data?.content), /2 held messages are on the way/);
  const logs = (await Promise.all([first, second].map((id) => settled(kv, id)))).flat();
  assert.deepEqual(logs.map((entry) => entry.status), ["ok", "ok"]);
  assert.deepEqual(discordTitles(discord, channel), ["One", "Two"]);
});

/**
 * Group `team` allowed in `here` with nothing paused, and group `other` (same owner) allowed only
 * in `elsewhere` but holding `here` under `key` (paused while it was allowed there); answers
 * `other`'s internal id.
 */
async function otherGroupHolding(kv: Kv, here: Target, elsewhere: Target, key: string) {
  await storeRoutes(kv, [
    customRoute("alerts", [here]),
    customRoute("elsewhere", [elsewhere], "other"),
  ]);
  const { entry } = await readGroupEntry(kv, "other");
  assert.ok(entry);
  const health: TargetHealth = {
    groupId: "other",
    target: here,
    state: "paused",
    failures: 5,
    pausedAt: Date.now(),
    updatedAt: Date.now(),
  };
  await kv.set([...targetHealthPrefix(entry.internalId), key], health);
  return entry.internalId;
}

/** That `other`'s health was never read, it is still paused and nothing resumed it. */
async function otherLeftAlone(
  store: Kv,
  keysRead: readonly KvKey[],
  internalId: string,
  key: string,
) {
  const [prefix, id] = targetHealthPrefix(internalId);
  assert.deepEqual(
    keysRead.filter((read) => read[0] === prefix && read[1] === id),
    [],
    "the other group's target health is not read",
  );
  assert.equal((await readTargetHealth(store, internalId, key)).value?.state, "paused");
  const audit = await listAuditEntries(store, { groupId: "other", limit: 10 });
  assert.ok(audit.every((entry) => entry.action !== "target.resume"));
}

Deno.test("/gh resume on Telegram: another group's held target in the chat is neither read nor resumed", async () => {
  await using store = await openTestKv();
  await using telegram = startFakeTelegram();
  const config = deliveryConfig({ telegram });
  const key = `telegram:${CHAT_ID}`;
  const internalId = await otherGroupHolding(
    store,
    CHAT,
    { platform: "telegram", chatId: "-1009" },
    key,
  );
  await linkPeople(store);
  const { kv, keysRead } = readCountingKv(store);

  await sayResume(kv, config, OWNER_TELEGRAM);
  assert.deepEqual(chatTexts(telegram).replies, ["Nothing is paused in this chat."]);
  await otherLeftAlone(store, keysRead, internalId, key);
});

Deno.test("/gh resume on Discord: another group's held target in the channel is neither read nor resumed", async () => {
  await using store = await openTestKv();
  const config = deliveryConfig({});
  const key = `discord:${CHANNEL}`;
  const here: Target = { platform: "discord", channelId: CHANNEL };
  const internalId = await otherGroupHolding(
    store,
    here,
    { platform: "discord", channelId: "300000000000000099" },
    key,
  );
  assert.ok(
    await saveDiscordLink(store, {
      discordUserId: DISCORD_USER,
      userId: "1",
      login: "owner",
      linkedAt: Date.now(),
    }),
  );
  const { kv, keysRead } = readCountingKv(store);

  const { log } = captureLog();
  const answer = await answerCommand(
    { kv, config, log },
    command("resume") as unknown as Interaction,
  );
  const data = (answer.response as { data?: { content?: string } }).data;
  assert.equal(data?.content, "Nothing is paused in this channel.");
  await otherLeftAlone(store, keysRead, internalId, key);
});
