/**
 * Target health: a target the bot was removed from pauses after the first permanent refusal,
 * holds its group's messages (never `dead`), tells the group's owners once in private, and
 * sends what it held, in order and once each, when a person resumes it; Discard fails the held
 * messages with a record; a 5xx storm that ends heals by itself; too many failures in a row
 * pause; a platform without its bot token holds its messages until a process starts with it.
 */
import assert from "node:assert/strict";
import type { Kv } from "../../lib/store/backend/types.ts";
import type { Principal, Target } from "../../lib/types.ts";
import { discardGroupTarget, resumeGroupTarget } from "../../lib/admin/target_health.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { saveDiscordLink, saveTelegramLink } from "../../lib/store/auth/links.ts";
import { getDmChannel, saveDmChannel } from "../../lib/store/notify/notify_cache.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import {
  readHealthCounts,
  readTargetHealth,
  targetKeyOf,
} from "../../lib/store/delivery/target_health.ts";
import {
  type FakeDiscord,
  fakeDmChannelOf,
  startFakeDiscord,
  startFakeTelegram,
} from "../../testing/fake_chat.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { sendLogKey, targetHealthKey } from "../../lib/store/keys.ts";
import { commitRecordingKv, holdsKey } from "../_kv_commits.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  logsOf,
  runWorker,
  settled,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";

const CHANNEL = { platform: "discord", channelId: "700" } satisfies Target;
const KEY = targetKeyOf(CHANNEL);
const OWNER_DISCORD_ID = "55501";

/** The group's owner (member `1`, login `owner` in storeRoutes) as a console principal. */
const OWNER: Principal = {
  userId: "1",
  login: "owner",
  superAdmin: false,
  roles: new Map([["team", "owner"]]),
  csrfToken: "csrf",
  sessionId: "session",
  debug: false,
};

const MISSING_ACCESS = { status: 403, body: { message: "Missing Access", code: 50001 } };

async function internalIdOf(kv: Kv, groupId = "team"): Promise<string> {
  const { entry } = await readGroupEntry(kv, groupId);
  assert.ok(entry);
  return entry.internalId;
}

/** Waits until every unit of `eventIds` is held (retrying, its error saying why). */
async function allHeld(kv: Kv, eventIds: string[]) {
  await waitFor("the units to be held", async () => {
    const logs = (await Promise.all(eventIds.map((id) => logsOf(kv, id)))).flat();
    return logs.length === eventIds.length &&
      logs.every((log) => log.status === "retrying" && /paused/.test(log.error ?? ""));
  });
}

/** Links the groups' owner's Discord account, and with `telegram` their Telegram account too. */
async function linkOwner(kv: Kv, telegram = false) {
  const owner = { userId: "1", login: "owner", linkedAt: Date.now() };
  assert.ok(await saveDiscordLink(kv, { ...owner, discordUserId: OWNER_DISCORD_ID }));
  if (telegram) {
    assert.ok(await saveTelegramLink(kv, { ...owner, telegramUserId: OWNER_TELEGRAM_ID }));
  }
}

Deno.test("target health: a channel whose bot was removed pauses, owners told once, resume sends all in order", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(kv, [customRoute("alerts", [CHANNEL])]);
  await linkOwner(kv);
  discord.script(CHANNEL.channelId, [MISSING_ACCESS]);
  await using _running = runWorker(kv, config);

  const first = await acceptCustom(kv, "One");
  await allHeld(kv, [first]);
  const second = await acceptCustom(kv, "Two");
  const third = await acceptCustom(kv, "Three");
  await allHeld(kv, [first, second, third]);

  for (
    const log of (await Promise.all([first, second, third].map((id) => logsOf(kv, id)))).flat()
  ) {
    assert.match(log.error ?? "", /`\/gh resume` in the chat or Resume on the group's page/);
  }
  const internalId = await internalIdOf(kv);
  const health = await readTargetHealth(kv, internalId, KEY);
  assert.equal(health.value?.state, "broken");
  assert.equal(health.value?.httpStatus, 403);
  assert.deepEqual(discordTitles(discord, CHANNEL.channelId), [], "nothing got through");
  const dms = discord.received.filter((message) =>
    message.chat === fakeDmChannelOf(OWNER_DISCORD_ID)
  );
  assert.equal(dms.length, 1, "the owner is told once");
  assert.match(String(dms[0].body.content), /paused/);
  assert.match(String(dms[0].body.content), /Resume on the group's page/);
  assert.match(String(dms[0].body.content), /send \/gh resume there/);
  const [pause] = await listAuditEntries(kv, { groupId: "team", limit: 5 });
  assert.equal(pause.action, "target.pause");
  assert.equal((await readHealthCounts(kv)).get("discord")?.get("paused"), 1);

  // The bot is invited back; the owner presses Resume.
  const resumed = await resumeGroupTarget(kv, OWNER, "team", KEY);
  assert.equal(resumed.resumed, 3);
  const logs = (await Promise.all([first, second, third].map((id) => settled(kv, id)))).flat();
  assert.deepEqual(logs.map((log) => log.status), ["ok", "ok", "ok"]);
  assert.deepEqual(discordTitles(discord, CHANNEL.channelId), ["One", "Two", "Three"]);
  assert.equal((await readTargetHealth(kv, internalId, KEY)).value?.state, "healthy");
  const fourth = await acceptCustom(kv, "Four");
  await settled(kv, fourth);
  assert.deepEqual(discordTitles(discord, CHANNEL.channelId), ["One", "Two", "Three", "Four"]);
  assert.equal(
    discord.received.filter((message) => message.chat === fakeDmChannelOf(OWNER_DISCORD_ID)).length,
    1,
    "no second notice",
  );
  const [resume] = await listAuditEntries(kv, { groupId: "team", limit: 1 });
  assert.equal(resume.action, "target.resume");
});

const OWNER_TELEGRAM_ID = "66602";

/** The Discord messages sent anywhere but CHANNEL: the owner's private notices. */
function privateNotices(discord: FakeDiscord) {
  return discord.received.filter((message) => message.chat !== CHANNEL.channelId);
}

/** Pauses CHANNEL with a refused `title`, waits for the `notices`-th private notice; its event. */
async function pauseWithNotice(
  kv: Kv,
  discord: FakeDiscord,
  title: string,
  notices: number,
): Promise<string> {
  discord.script(CHANNEL.channelId, [MISSING_ACCESS]);
  const eventId = await acceptCustom(kv, title);
  await allHeld(kv, [eventId]);
  await waitFor("the owner's pause notice", () => privateNotices(discord).length === notices);
  return eventId;
}

Deno.test("target health: pause notices to one owner open the Discord DM channel once and remember it; Telegram gets each", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  const config = deliveryConfig({ discord, telegram });
  await storeRoutes(kv, [customRoute("alerts", [CHANNEL])]);
  await linkOwner(kv, true);
  await using _running = runWorker(kv, config);

  const first = await pauseWithNotice(kv, discord, "One", 1);
  assert.equal((await resumeGroupTarget(kv, OWNER, "team", KEY)).resumed, 1);
  await settled(kv, first);
  await pauseWithNotice(kv, discord, "Two", 2);

  assert.deepEqual(discord.dmsOpened, [OWNER_DISCORD_ID], "the DM channel is opened once");
  assert.equal(await getDmChannel(kv, OWNER_DISCORD_ID), fakeDmChannelOf(OWNER_DISCORD_ID));
  for (const notice of privateNotices(discord)) {
    assert.equal(notice.chat, fakeDmChannelOf(OWNER_DISCORD_ID));
    assert.match(String(notice.body.content), /paused/);
  }
  await waitFor(
    "both Telegram notices",
    () => telegram.received.filter((message) => message.chat === OWNER_TELEGRAM_ID).length === 2,
  );
  for (const notice of telegram.received.filter((message) => message.chat === OWNER_TELEGRAM_ID)) {
    assert.match(String(notice.body.text), /paused/);
  }
});

Deno.test("target health: a pause notice goes to the DM channel a notification or reminder remembered", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(kv, [customRoute("alerts", [CHANNEL])]);
  await linkOwner(kv);
  await saveDmChannel(kv, OWNER_DISCORD_ID, "4242");
  await using _running = runWorker(kv, config);

  await pauseWithNotice(kv, discord, "One", 1);
  assert.deepEqual(discord.dmsOpened, [], "the remembered channel is used");
  assert.equal(privateNotices(discord)[0].chat, "4242");
  assert.match(String(privateNotices(discord)[0].body.content), /paused/);
});

Deno.test("target health: Discard fails the held messages with a record and sends none", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(kv, [customRoute("alerts", [CHANNEL])]);
  discord.script(CHANNEL.channelId, [{ status: 404, body: { message: "Unknown Channel" } }]);
  await using _running = runWorker(kv, config);
  const first = await acceptCustom(kv, "One");
  const second = await acceptCustom(kv, "Two");
  await allHeld(kv, [first, second]);

  const discarded = await discardGroupTarget(kv, config, OWNER, "team", KEY);
  assert.equal(discarded.discarded, 2);
  const logs = (await Promise.all([first, second].map((id) => logsOf(kv, id)))).flat();
  assert.deepEqual(logs.map((log) => log.status), ["failed", "failed"]);
  assert.ok(logs.every((log) => /discarded by owner/.test(log.error ?? "")));
  const [entry] = await listAuditEntries(kv, { groupId: "team", limit: 1 });
  assert.equal(entry.action, "target.discard");
  assert.equal(entry.detail?.held, 2);
  assert.equal(discord.received.length, 0);
  await assert.rejects(
    () =>
      discardGroupTarget(
        kv,
        config,
        { ...OWNER, roles: new Map([["team", "viewer"]]) },
        "team",
        KEY,
      ),
    /403|owner or admin/,
  );
});

Deno.test("target health: a 5xx storm that ends heals the target without help", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(kv, [customRoute("alerts", [CHANNEL])]);
  const storm = { status: 502, body: { message: "Bad Gateway" } };
  discord.script(CHANNEL.channelId, [storm, storm]);
  await using _running = runWorker(kv, config);
  const eventId = await acceptCustom(kv, "Storm");
  const internalId = await internalIdOf(kv);
  await waitFor(
    "the target to be failing",
    async () => (await readTargetHealth(kv, internalId, KEY)).value?.state === "failing",
  );
  const [log] = await settled(kv, eventId);
  assert.equal(log.status, "ok");
  // The health is written in the outcome's commit.
  assert.equal((await readTargetHealth(kv, internalId, KEY)).value?.state, "healthy");
  assert.deepEqual(discordTitles(discord, CHANNEL.channelId), ["Storm"]);
});

Deno.test("target health: each attempt's outcome and the target's new health are one commit", async () => {
  await using store = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(store, [customRoute("alerts", [CHANNEL])]);
  discord.script(CHANNEL.channelId, [{ status: 502, body: { message: "Bad Gateway" } }]);
  const { kv, commits } = commitRecordingKv(store);
  const internalId = await internalIdOf(store);
  const healthKey = targetHealthKey(internalId, KEY);
  {
    await using _running = runWorker(kv, config);
    const eventId = await acceptCustom(store, "Flaky");
    const [log] = await settled(store, eventId);
    assert.equal(log.status, "ok");
    assert.equal(log.attempts, 2);
    assert.equal((await readTargetHealth(store, internalId, KEY)).value?.state, "healthy");
    const withHealth = commits.filter((commit) => holdsKey(commit.written, healthKey));
    assert.equal(withHealth.length, 2, "failing, then healthy again");
    for (const commit of withHealth) {
      assert.ok(holdsKey(commit.written, sendLogKey(log.id)), "the outcome is in the same commit");
    }
  }
});

Deno.test("target health: failures in a row over the window pause the target", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ discord });
  await storeRoutes(kv, [customRoute("alerts", [CHANNEL])]);
  const storm = { status: 503, body: { message: "Service Unavailable" } };
  discord.script(CHANNEL.channelId, [storm, storm, storm]);
  await using _running = runWorker(kv, config, {
    health: { pauseAfterFailures: 3, pauseAfterMs: 0 },
  });
  const eventId = await acceptCustom(kv, "Down");
  await allHeld(kv, [eventId]);
  const internalId = await internalIdOf(kv);
  assert.equal((await readTargetHealth(kv, internalId, KEY)).value?.state, "paused");
  await resumeGroupTarget(kv, OWNER, "team", KEY);
  const [log] = await settled(kv, eventId);
  assert.equal(log.status, "ok");
  assert.deepEqual(discordTitles(discord, CHANNEL.channelId), ["Down"]);
});

Deno.test("unconfigured platform: a unit is held, not failed, and sent once a process starts with the token", async () => {
  await using kv = await openTestKv();
  await using telegram = startFakeTelegram();
  const chat: Target = { platform: "telegram", chatId: "-100777" };
  await storeRoutes(kv, [customRoute("alerts", [chat])]);
  const eventId = await acceptCustom(kv, "Waiting");
  {
    await using first = runWorker(kv, deliveryConfig({}));
    await waitFor("the unit to say why it waits", async () => {
      const [log] = await logsOf(kv, eventId);
      return log?.error !== undefined;
    });
    const [log] = await logsOf(kv, eventId);
    assert.equal(log.status, "retrying");
    assert.equal(log.attempts, 0);
    assert.equal(log.error, "Telegram is not configured: set TELEGRAM_BOT_TOKEN and restart");
    await first.stop();
  }
  await using second = runWorker(kv, deliveryConfig({ telegram }));
  await second.worker.upkeep();
  const [log] = await settled(kv, eventId);
  assert.equal(log.status, "ok");
  assert.equal(telegram.received.length, 1);
});
