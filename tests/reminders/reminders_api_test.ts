/**
 * Setting review reminders: the console API (a person's own, a group's channel reminders) and
 * `/gh remind` in Telegram. Every input is checked with a clear 400, each owner keeps a bounded
 * number, a channel reminder only posts into its group's allowed targets, and only owners and
 * admins add or remove a group's.
 */
import assert from "node:assert/strict";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { listJobs } from "../../lib/store/delivery/jobs.ts";
import { saveDiscordLink, saveTelegramLink } from "../../lib/store/auth/links.ts";
import { listGroupEntries, putGroup } from "../../lib/store/config/groups.ts";
import { allowTargets } from "../../lib/store/config/allowed_targets.ts";
import { listReminders } from "../../lib/store/config/reminders.ts";
import { allowTarget, PEOPLE, ROUTE_TARGET, startAdminApp } from "../_admin_helpers.ts";
import {
  CHANNEL,
  command,
  DISCORD_USER,
  GRACE,
  linkGrace,
  startDiscordApp,
} from "../discord_app.ts";
import {
  ALICE,
  ALICE_GITHUB,
  GROUP,
  linkUser,
  messageUpdate,
  sendUpdate,
  startTelegramWorld,
  type TelegramWorld,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

const GOOD = { days: ["mon", "fri"], times: ["09:00"], timeZone: "Europe/Berlin" };

Deno.test("console: bad reminder settings are refused with a 400 naming the field", async () => {
  await using app = await startAdminApp();
  await saveTelegramLink(app.kv, { telegramUserId: "123456", ...PEOPLE.owner, linkedAt: 1 });
  await allowTarget(app.kv, "alpha");
  const mine = (body: unknown) => app.call("owner", "POST", "/admin/api/me/reminders", { body });
  const cases: [unknown, RegExp][] = [
    [{ ...GOOD, timeZone: "Mars/Olympus_Mons" }, /timeZone: give an IANA time zone/],
    [{ ...GOOD, times: ["25:00"] }, /times/],
    [{ ...GOOD, times: ["09:00", "10:00", "11:00", "12:00", "13:00"] }, /times/],
    [{ ...GOOD, times: ["09:00", "09:00"] }, /times: give 1-4 different times/],
    [{ ...GOOD, days: [] }, /days/],
    [{ ...GOOD, days: ["mon", "mon"] }, /days: give 1-7/],
    [{ ...GOOD, days: ["someday"] }, /days/],
    [{ ...GOOD, olderThanHours: 5 }, /olderThanHours|unrecognized|Unrecognized/],
    [{ ...GOOD, allClear: "yes" }, /allClear/],
  ];
  for (const [body, error] of cases) {
    const answer = await mine(body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.match(JSON.stringify(answer.body), error, JSON.stringify(body));
  }
  const group = (body: unknown) =>
    app.call("owner", "POST", "/admin/api/groups/alpha/reminders", { body });
  const channel = { ...GOOD, target: ROUTE_TARGET };
  for (const hours of [0, 721, 1.5]) {
    const answer = await group({ ...channel, olderThanHours: hours });
    assert.equal(answer.status, 400);
    assert.match(JSON.stringify(answer.body), /olderThanHours/);
  }
  const staleCases: [Record<string, unknown>, RegExp][] = [
    [{ staleDays: 0 }, /staleDays/],
    [{ staleDays: 366 }, /staleDays/],
    [{ staleDays: 2.5 }, /staleDays/],
    [{ labels: ["bug"] }, /labels, excludeLabels: only with staleDays/],
    [{ staleDays: 7, labels: Array.from({ length: 11 }, (_, i) => `l${i}`) }, /labels/],
    [{ staleDays: 7, excludeLabels: ["x".repeat(51)] }, /excludeLabels/],
    [{ staleDays: 7, labels: ["Bug", "bug"] }, /labels: give up to 10 different/],
    [{ staleDays: 7, labels: "bug" }, /labels/],
  ];
  for (const [extra, error] of staleCases) {
    const answer = await group({ ...channel, ...extra });
    assert.equal(answer.status, 400, JSON.stringify(extra));
    assert.match(JSON.stringify(answer.body), error, JSON.stringify(extra));
  }
  const personalStale = await mine({ ...GOOD, staleDays: 7 });
  assert.equal(personalStale.status, 400);
  const foreign = await group({ ...GOOD, target: { platform: "discord", channelId: "999" } });
  assert.equal(foreign.status, 400);
  assert.match(foreign.body.error, /not one of group alpha's targets/);
  const badId = await app.call("owner", "DELETE", "/admin/api/me/reminders/nope");
  assert.equal(badId.status, 400);
  // nothing was stored by any of them
  assert.deepEqual(await listReminders(app.kv, { kind: "user", userId: PEOPLE.owner.userId }), []);
  assert.equal((await listJobs(app.kv)).length, 0);
});

Deno.test("console: a personal reminder goes to the linked Telegram chat; at most five", async () => {
  await using app = await startAdminApp();
  const none = await app.call("admin", "POST", "/admin/api/me/reminders", { body: GOOD });
  assert.equal(none.status, 400);
  assert.match(none.body.error, /Link a Telegram account first/);

  await saveTelegramLink(app.kv, { telegramUserId: "123456", ...PEOPLE.owner, linkedAt: 1 });
  const created = await app.call("owner", "POST", "/admin/api/me/reminders", { body: GOOD });
  assert.equal(created.status, 201);
  assert.deepEqual(created.body.target, { platform: "telegram", chatId: "123456" });
  assert.deepEqual(created.body.days, ["mon", "fri"]);
  assert.ok(Date.parse(created.body.nextAt) > Date.now());
  const jobs = await listJobs(app.kv);
  assert.equal(jobs.length, 1);
  assert.equal(jobs[0].value.message.reminderId, created.body.id);
  assert.equal(jobs[0].value.message.slot, Date.parse(created.body.nextAt));

  for (let more = 0; more < 4; more++) {
    assert.equal(
      (await app.call("owner", "POST", "/admin/api/me/reminders", { body: GOOD })).status,
      201,
    );
  }
  const sixth = await app.call("owner", "POST", "/admin/api/me/reminders", { body: GOOD });
  assert.equal(sixth.status, 409);
  const listed = await app.call("owner", "GET", "/admin/api/me/reminders");
  assert.equal(listed.body.reminders.length, 5);
  assert.equal(
    (await app.call("viewer", "GET", "/admin/api/me/reminders")).body.reminders.length,
    0,
  );

  const path = `/admin/api/me/reminders/${created.body.id}`;
  assert.equal((await app.call("viewer", "DELETE", path)).status, 404); // not theirs
  assert.equal((await app.call("owner", "DELETE", path)).status, 200);
  assert.equal((await app.call("owner", "DELETE", path)).status, 404);
  assert.equal(
    (await app.call("owner", "GET", "/admin/api/me/reminders")).body.reminders.length,
    4,
  );
});

Deno.test("console: a personal reminder goes to the linked Discord account when asked, or when only Discord is linked", async () => {
  await using app = await startAdminApp();
  const discord = { ...GOOD, platform: "discord" };
  const none = await app.call("owner", "POST", "/admin/api/me/reminders", { body: discord });
  assert.equal(none.status, 400);
  assert.match(none.body.error, /Link a Discord account first/);
  const wrong = await app.call("owner", "POST", "/admin/api/me/reminders", {
    body: { ...GOOD, platform: "slack" },
  });
  assert.equal(wrong.status, 400);
  await saveDiscordLink(app.kv, {
    discordUserId: "400000000000000004",
    ...PEOPLE.owner,
    linkedAt: 1,
  });
  const only = await app.call("owner", "POST", "/admin/api/me/reminders", { body: GOOD });
  assert.equal(only.status, 201);
  assert.deepEqual(only.body.target, { platform: "discord", channelId: "400000000000000004" });
  await saveTelegramLink(app.kv, { telegramUserId: "123456", ...PEOPLE.owner, linkedAt: 1 });
  const asked = await app.call("owner", "POST", "/admin/api/me/reminders", { body: discord });
  assert.deepEqual(asked.body.target, { platform: "discord", channelId: "400000000000000004" });
  const either = await app.call("owner", "POST", "/admin/api/me/reminders", { body: GOOD });
  assert.deepEqual(either.body.target, { platform: "telegram", chatId: "123456" });
});

Deno.test("console: owners and admins add a group's channel reminder (audited); others may not", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  const body = { ...GOOD, target: ROUTE_TARGET, olderThanHours: 24, allClear: true };
  const path = "/admin/api/groups/alpha/reminders";
  assert.equal((await app.call("viewer", "POST", path, { body })).status, 403);
  assert.equal((await app.call("otherOwner", "POST", path, { body })).status, 403);
  assert.equal(
    (await app.call("owner", "POST", "/admin/api/groups/nope/reminders", { body })).status,
    404,
  );
  const created = await app.call("admin", "POST", path, { body });
  assert.equal(created.status, 201);
  assert.equal(created.body.olderThanHours, 24);
  assert.equal(created.body.allClear, true);
  const listed = await app.call("viewer", "GET", path);
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.reminders.map((r: { id: string }) => r.id), [created.body.id]);
  assert.equal((await app.call("otherOwner", "GET", path)).status, 403);
  const audit = await listAuditEntries(app.kv, { groupId: "alpha" });
  assert.ok(audit.some((entry) => entry.action === "reminder.create"), JSON.stringify(audit));
  const one = `${path}/${created.body.id}`;
  assert.equal((await app.call("viewer", "DELETE", one)).status, 403);
  assert.equal((await app.call("owner", "DELETE", one)).status, 200);
  assert.equal((await app.call("owner", "GET", path)).body.reminders.length, 0);
});

async function say(world: TelegramWorld, text: string, chatId: number): Promise<string> {
  await sendUpdate(world.t, messageUpdate(textMessage(text, { chatId })));
  return textsTo(world.bot, chatId).at(-1)!;
}

Deno.test("telegram: /gh remind sets a personal reminder in private and a channel one in a group chat", async () => {
  await using world = await startTelegramWorld();
  const kv = world.t.kv;
  assert.match(await say(world, "/gh remind mon-fri 09:00 Europe/Berlin", ALICE), /Not linked/);
  await linkUser(world);
  const me = { userId: String(ALICE_GITHUB.id), login: ALICE_GITHUB.login };

  assert.match(await say(world, "/gh remind mon 25:00 UTC", ALICE), /times: give/);
  assert.match(await say(world, "/gh remind mon 09:00 Nowhere/City", ALICE), /timeZone/);
  assert.match(await say(world, "/gh remind mon 09:00 UTC older 5", ALICE), /only a channel/);
  assert.match(await say(world, "/gh remind sometime", ALICE), /Use \/gh remind/);
  const set = await say(world, "/gh remind mon-fri 09:00,14:30 Europe/Berlin", ALICE);
  assert.match(set, /^Reminder set: [0-9a-f]{16}: mon,tue,wed,thu,fri 09:00,14:30 Europe\/Berlin/);
  const [personal] = await listReminders(kv, { kind: "user", userId: me.userId });
  assert.deepEqual(personal.target, { platform: "telegram", chatId: String(ALICE) });
  assert.deepEqual(personal.schedule.days, [1, 2, 3, 4, 5]);
  assert.match(await say(world, "/gh remind list", ALICE), new RegExp(personal.id));

  // A group chat: only for an owner or admin of a group that posts into it.
  assert.match(await say(world, "/gh remind daily 09:00 UTC", GROUP), /Only an owner or admin/);
  await putGroup(kv, { id: "team", name: "Team", members: [{ ...me, role: "owner" }] });
  assert.match(await say(world, "/gh remind daily 09:00 UTC", GROUP), /Only an owner or admin/);
  const chat = { platform: "telegram" as const, chatId: String(GROUP) };
  assert.ok((await allowTargets(kv, "team", [chat], me, "admin")).ok);
  const channel = await say(world, "/gh remind daily 09:00 UTC older 24h allclear", GROUP);
  assert.match(channel, /^Reminder set: .*older than 24h, all clear/);
  const internal = (await listAuditEntries(kv, { groupId: "team" }))
    .find((entry) => entry.action === "reminder.create");
  assert.equal(internal?.detail?.via, "chat");
  const id = channel.match(/[0-9a-f]{16}/)![0];
  assert.match(await say(world, `/gh remind delete ${id}`, GROUP), /removed/);
  assert.match(await say(world, `/gh remind delete ${id}`, GROUP), /No reminder/);
});

async function pageOf(
  app: Awaited<ReturnType<typeof startAdminApp>>,
  caller: "owner" | "viewer" | "admin",
  path: string,
) {
  const res = await app.t.fetch(path, {
    headers: { cookie: await app.cookie(caller), accept: "text/html" },
  });
  const html = await res.text();
  return { status: res.status, html, csrf: html.match(/name="csrf_token" value="([^"]+)"/)?.[1] };
}

async function postForm(
  app: Awaited<ReturnType<typeof startAdminApp>>,
  caller: "owner" | "viewer" | "admin",
  fields: [string, string][],
) {
  const res = await app.t.fetch("/admin/reminders", {
    method: "POST",
    headers: { cookie: await app.cookie(caller), origin: "http://localhost" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

Deno.test("pages: the account page and the group page list reminders and add them by form", async () => {
  await using app = await startAdminApp();
  await saveTelegramLink(app.kv, { telegramUserId: "123456", ...PEOPLE.owner, linkedAt: 1 });
  await allowTarget(app.kv, "alpha");
  const account = await pageOf(app, "owner", "/admin/account");
  assert.match(account.html, /Review reminders/);
  assert.match(account.html, /No reminders yet/);
  const csrf = account.csrf!;
  const days: [string, string][] = [["days", "mon"], ["days", "wed"]];
  const added = await postForm(app, "owner", [
    ["csrf_token", csrf],
    ["intent", "add-personal"],
    ...days,
    ["times", "08:30"],
    ["timeZone", "Asia/Tokyo"],
  ]);
  assert.equal(added.status, 303);
  assert.equal(added.location, "/admin/account?done=reminder-added");
  assert.match(
    (await pageOf(app, "owner", "/admin/account")).html,
    /mon, wed at 08:30 \(Asia\/Tokyo\)/,
  );

  const bad = await postForm(app, "owner", [
    ["csrf_token", csrf],
    ["intent", "add-personal"],
    ...days,
    ["times", "8h"],
    ["timeZone", "Asia/Tokyo"],
  ]);
  assert.equal(bad.status, 400);
  assert.match(bad.text, /times/);
  const forged = await postForm(app, "owner", [["csrf_token", "forged"], [
    "intent",
    "add-personal",
  ]]);
  assert.equal(forged.status, 403);

  const group = await pageOf(app, "admin", "/admin/groups/alpha");
  assert.match(group.html, /Review reminders/);
  assert.match(group.html, /value="discord:123456789"/);
  const channel = await postForm(app, "admin", [
    ["csrf_token", group.csrf!],
    ["intent", "add-group"],
    ["group", "alpha"],
    ...days,
    ["times", "10:00"],
    ["timeZone", "UTC"],
    ["target", "discord:123456789"],
    ["olderThanHours", "48"],
    ["staleDays", "30"],
    ["labels", "bug, ops"],
    ["excludeLabels", "wontfix"],
  ]);
  assert.equal(channel.status, 303);
  assert.equal(channel.location, "/admin/groups/alpha?notice=reminder-added");
  const viewer = await pageOf(app, "viewer", "/admin/groups/alpha");
  assert.match(viewer.html, /older than 48h/);
  assert.match(viewer.html, /stale work after 30 days.*with bug, ops.*without wontfix/s);
  const listed = await app.call("viewer", "GET", "/admin/api/groups/alpha/reminders");
  assert.equal(listed.body.reminders[0].staleDays, 30);
  assert.deepEqual(listed.body.reminders[0].labels, ["bug", "ops"]);
  assert.deepEqual(listed.body.reminders[0].excludeLabels, ["wontfix"]);
  assert.doesNotMatch(viewer.html, /Add reminder/);
  const refused = await postForm(app, "viewer", [
    ["csrf_token", viewer.csrf!],
    ["intent", "add-group"],
    ["group", "alpha"],
    ...days,
    ["times", "10:00"],
    ["timeZone", "UTC"],
    ["target", "discord:123456789"],
  ]);
  assert.equal(refused.status, 403);
});

Deno.test("discord: /gh remind in a server channel sets the channel's group reminder", async () => {
  await using app = await startDiscordApp();
  const kv = app.t.kv;
  const say = async (settings: string, extra: Record<string, unknown> = {}) => {
    const answer = await app.interact(command("remind", { settings }, extra));
    return String((answer.data as { content: string }).content);
  };
  assert.match(await say("mon 09:00 UTC"), /Not linked/);
  await linkGrace(app);
  const grace = { userId: String(GRACE.id), login: GRACE.login };
  assert.match(await say("mon 09:00 UTC"), /Only an owner or admin/);
  await putGroup(kv, { id: "team", name: "Team", members: [{ ...grace, role: "admin" }] });
  const channel = { platform: "discord" as const, channelId: CHANNEL };
  assert.ok((await allowTargets(kv, "team", [channel], grace, "admin")).ok);
  assert.match(await say("mon 9am UTC"), /times: give/);
  const set = await say("mon,thu 09:00 America/New_York older 48");
  assert.match(set, /^Reminder set: [0-9a-f]{16}: mon,thu 09:00 America\/New_York, older than 48h/);
  const team = (await listGroupEntries(kv)).find((entry) => entry.group.id === "team")!;
  const [stored] = await listReminders(kv, { kind: "group", internalId: team.internalId });
  assert.deepEqual(stored.target, channel);
  assert.deepEqual(stored.scope, {
    kind: "channel",
    groupId: "team",
    internalId: team.internalId,
    olderThanHours: 48,
  });
  assert.match(await say("list"), /older than 48h/);
  assert.match(await say("mon 09:00 UTC stale 0"), /staleDays: a whole number of days, 1-365/);
  const stale = await say("fri 16:00 UTC stale 14d labels bug,ops exclude wontfix");
  assert.match(stale, /stale after 14d with bug,ops without wontfix/);
  const all = await listReminders(kv, { kind: "group", internalId: team.internalId });
  assert.deepEqual(all[1].scope, {
    kind: "channel",
    groupId: "team",
    internalId: team.internalId,
    stale: { days: 14, labels: ["bug", "ops"], excludeLabels: ["wontfix"] },
  });
});

Deno.test("discord: /gh remind in a direct message sets a personal reminder to the Discord DM", async () => {
  await using app = await startDiscordApp();
  const kv = app.t.kv;
  const inDm = {
    guild_id: undefined,
    member: undefined,
    channel_id: "700000000000000007",
    user: { id: DISCORD_USER, username: "gracie", global_name: "Grace" },
  };
  const say = async (settings: string) => {
    const answer = await app.interact(command("remind", { settings }, inDm));
    assert.equal((answer.data as { flags?: number }).flags, 64); // ephemeral
    return String((answer.data as { content: string }).content);
  };
  assert.match(await say("mon 09:00 UTC"), /Not linked/);
  await linkGrace(app);
  assert.match(await say("mon 09:00 UTC older 5"), /only a channel reminder/);
  assert.match(await say("mon-fri 09:00 Europe/Berlin allclear"), /^Reminder set: [0-9a-f]{16}/);
  const [stored] = await listReminders(kv, { kind: "user", userId: String(GRACE.id) });
  assert.deepEqual(stored.scope, {
    kind: "personal",
    userId: String(GRACE.id),
    login: GRACE.login,
  });
  assert.deepEqual(stored.target, { platform: "discord", channelId: DISCORD_USER });
  assert.match(await say("list"), /mon,tue,wed,thu,fri 09:00 Europe\/Berlin, all clear/);
});
