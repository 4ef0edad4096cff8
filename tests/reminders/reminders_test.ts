/**
 * Review reminders end to end with the fakes: the index of open pull requests kept from
 * events and refreshed from GitHub, personal and channel reminders fired by their jobs at the
 * right local time (an injected clock, across a daylight saving change), nothing sent for an
 * empty list unless an all clear is asked, and no second message when a job runs again.
 */
import assert from "node:assert/strict";
import type { Kv } from "../../lib/store/backend/types.ts";
import { utf8 } from "../../lib/encoding.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { listGroupEntries, putGroup } from "../../lib/store/config/groups.ts";
import { allowTargets, replaceAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { saveDiscordLink, saveTelegramLink } from "../../lib/store/auth/links.ts";
import { listDeliveryLogs } from "../../lib/store/delivery/send_logs.ts";
import {
  applyPullChange,
  listOpenPulls,
  MAX_PULLS_PER_REPOSITORY,
  type OpenPull,
} from "../../lib/store/delivery/open_pulls.ts";
import {
  createReminder,
  deleteReminder,
  getReminderEntry,
  listReminders,
  type Reminder,
} from "../../lib/store/config/reminders.ts";
import { readGroupSet } from "../../lib/store/config/group_set.ts";
import { applyGroupChanges } from "../../lib/store/config/group_admin.ts";
import { newAuditEntry } from "../../lib/store/telemetry/audit.ts";
import { listOpenIssues } from "../../lib/store/delivery/open_issues.ts";
import { listJobs } from "../../lib/store/delivery/jobs.ts";
import { saveToken } from "../../lib/store/auth/tokens.ts";
import { scheduleReminder } from "../../lib/delivery/reminder_jobs.ts";
import { lastSlotAtOrBefore, nextSlotAfter } from "../../lib/delivery/reminder_schedule.ts";
import { refreshGroupPulls } from "../../lib/delivery/pull_refresh.ts";
import type { Config } from "../../lib/config.ts";
import type { Target } from "../../lib/types.ts";
import {
  type FakeDiscord,
  fakeDmChannelOf,
  startFakeDiscord,
  startFakeTelegram,
} from "../../testing/fake_chat.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { captureLog } from "../_helpers.ts";
import { deliveryConfig, OPERATOR, runWorker, waitFor } from "../_delivery_helpers.ts";
import { type FakeGitHub, githubEnv, startFakeGitHub } from "../fake_github.ts";

const ALICE = { userId: "11", login: "alice" };
const BOB = { userId: "12", login: "bob" };
const REPO = "octo/app";
const CHANNEL: Target = { platform: "telegram", chatId: "-1001" };
const ALICE_CHAT: Target = { platform: "telegram", chatId: "777" };
/** Monday 30 March 2026, 09:00 in Berlin: the first Monday of summer time (07:00 UTC). */
const MONDAY_NINE_SUMMER = Date.parse("2026-03-30T07:00:00Z");
const DAY = 24 * 3_600_000;

/** Group `team` with Alice (owner) and Bob, allowed to post into {@link CHANNEL}. */
async function setUpGroup(kv: Kv): Promise<string> {
  await putGroup(kv, {
    id: "team",
    name: "Team",
    members: [{ ...ALICE, role: "owner" }, { ...BOB, role: "viewer" }],
  });
  assert.ok((await allowTargets(kv, "team", [CHANNEL], OPERATOR, "admin")).ok);
  return (await listGroupEntries(kv)).find((entry) => entry.group.id === "team")!.internalId;
}

/** A pull request object as GitHub writes it. */
function pullObject(
  number: number,
  createdAt: number,
  reviewers: string[],
  extra: Record<string, unknown> = {},
) {
  return {
    number,
    title: `Change ${number}`,
    html_url: `https://github.com/${REPO}/pull/${number}`,
    user: { login: "carol" },
    created_at: new Date(createdAt).toISOString(),
    state: "open",
    draft: false,
    requested_reviewers: reviewers.map((login) => ({ login })),
    requested_teams: [],
    ...extra,
  };
}

/** Accepts a GitHub event into group `team`, as its webhook would. */
async function accept(kv: Kv, kind: string, payload: Record<string, unknown>): Promise<void> {
  const outcome = await saveEvent(kv, {
    provider: "github",
    kind,
    action: payload.action as string,
    scope: { type: "group", groupId: "team" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ repository: { full_name: REPO }, ...payload })),
  });
  assert.equal(outcome.status, "accepted");
}

async function indexed(kv: Kv, internalId: string): Promise<Map<number, OpenPull>> {
  return new Map((await listOpenPulls(kv, internalId)).map((pull) => [pull.number, pull]));
}

function reminderOf(
  id: string,
  scope: Reminder["scope"],
  target: Target,
  allClear = false,
): Reminder {
  return {
    id,
    scope,
    schedule: { days: [1], times: ["09:00"], timeZone: "Europe/Berlin" },
    target,
    allClear,
    lastSlot: 0,
    createdAt: 0,
    createdBy: ALICE,
  };
}

async function store(kv: Kv, reminder: Reminder, now: number): Promise<void> {
  const outcome = await createReminder(
    kv,
    reminder,
    10,
    (op) => scheduleReminder(op, reminder, now),
  );
  assert.equal(outcome, "created");
}

/** Waits until no `reminder_send` job and no delivery work is left. */
async function quiet(kv: Kv): Promise<void> {
  await waitFor("reminder work to finish", async () => {
    const jobs = await listJobs(kv);
    return jobs.every((job) => job.value.message.type === "reminder");
  });
}

interface World extends AsyncDisposable {
  kv: Kv;
  config: Config;
  github: FakeGitHub;
  telegram: ReturnType<typeof startFakeTelegram>;
  clock: { now: number };
  internalId: string;
  start(): ReturnType<typeof runWorker>;
}

/**
 * Opens pull request #1 (created at `createdAt`, review requested from `reviewer`) and waits until
 * the index has it.
 */
async function openOnePull(w: World, createdAt: number, reviewer: string): Promise<void> {
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(1, createdAt, [reviewer]),
  });
  await waitFor("indexed", async () => (await indexed(w.kv, w.internalId)).size === 1);
}

/**
 * Stores a token for `person` that GitHub accepts and lets read `readable` (`GET /repos/…`);
 * answers the access token. `refreshable: false` stores none to refresh it with.
 */
async function giveToken(
  kv: Kv,
  config: Config,
  github: FakeGitHub,
  person: { userId: string; login: string },
  readable: string[],
): Promise<string> {
  const pair = github.issueTokens({ id: Number(person.userId), login: person.login });
  await saveToken(kv, { ...person, accessToken: pair.accessToken, expiresAt: null }, {
    encryptionKey: config.tokenEncryptionKey,
    now: Date.now(),
  });
  github.readable.set(Number(person.userId), new Set(readable));
  return pair.accessToken;
}

async function world(): Promise<World> {
  const kv = await openTestKv();
  const telegram = startFakeTelegram();
  const github = startFakeGitHub();
  const config = deliveryConfig({ telegram }, githubEnv(github));
  const clock = { now: MONDAY_NINE_SUMMER - DAY };
  const internalId = await setUpGroup(kv);
  await saveTelegramLink(kv, { telegramUserId: "777", ...ALICE, linkedAt: 1 });
  await giveToken(kv, config, github, ALICE, [REPO]);
  return {
    kv,
    config,
    github,
    telegram,
    clock,
    internalId,
    start: () => runWorker(kv, config, { now: () => clock.now }),
    async [Symbol.asyncDispose]() {
      await telegram[Symbol.asyncDispose]();
      await github[Symbol.asyncDispose]();
      await kv[Symbol.asyncDispose]();
    },
  };
}

Deno.test("index from events: opened, review requested, reviewed, merged", async () => {
  await using w = await world();
  await using _worker = w.start();
  const opened = Date.parse("2026-03-20T10:00:00Z");
  await accept(w.kv, "pull_request", { action: "opened", pull_request: pullObject(7, opened, []) });
  await waitFor("the opened pull request", async () => (await indexed(w.kv, w.internalId)).has(7));
  assert.deepEqual((await indexed(w.kv, w.internalId)).get(7)?.reviewers, []);

  await accept(w.kv, "pull_request", {
    action: "review_requested",
    pull_request: pullObject(7, opened, ["alice"]),
    requested_reviewer: { login: "bob" },
  });
  await waitFor(
    "both reviewers",
    async () => (await indexed(w.kv, w.internalId)).get(7)?.reviewers.length === 2,
  );
  assert.deepEqual((await indexed(w.kv, w.internalId)).get(7)?.reviewers, ["alice", "bob"]);

  await accept(w.kv, "pull_request_review", {
    action: "submitted",
    pull_request: pullObject(7, opened, ["alice", "bob"]),
    review: { user: { login: "bob" }, state: "approved" },
  });
  await waitFor(
    "bob's request gone",
    async () => (await indexed(w.kv, w.internalId)).get(7)?.reviewers.length === 1,
  );
  assert.deepEqual((await indexed(w.kv, w.internalId)).get(7)?.reviewers, ["alice"]);

  await accept(w.kv, "pull_request", {
    action: "closed",
    pull_request: pullObject(7, opened, ["alice"], { state: "closed", merged: true }),
  });
  await waitFor("the merged one gone", async () => !(await indexed(w.kv, w.internalId)).has(7));
});

Deno.test("refresh from GitHub removes a stale entry and adds a missed one", async () => {
  await using w = await world();
  await using _worker = w.start();
  const opened = Date.parse("2026-03-20T10:00:00Z");
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(8, opened, ["alice"]),
  });
  await waitFor("indexed", async () => (await indexed(w.kv, w.internalId)).has(8));
  // #8 was merged while no event arrived; #9 was opened meanwhile.
  w.github.openPulls.set(REPO, [pullObject(9, opened + DAY, ["bob"])]);
  const pair = w.github.issueTokens({ id: 11, login: "alice" });
  await saveToken(w.kv, { ...ALICE, accessToken: pair.accessToken, expiresAt: null }, {
    encryptionKey: w.config.tokenEncryptionKey,
    now: Date.now(),
  });
  const { log } = captureLog();
  const as = { deps: { kv: w.kv, config: w.config }, userIds: [BOB.userId, ALICE.userId] };
  await refreshGroupPulls(as, log, w.internalId, Date.now());
  const after = await indexed(w.kv, w.internalId);
  assert.deepEqual([...after.keys()], [9]);
  assert.deepEqual(after.get(9)?.reviewers, ["bob"]);
  assert.equal(w.github.requestsTo(`/repos/${REPO}/pulls`).length, 1);
});

Deno.test("slots keep their local time across a daylight saving change", () => {
  const schedule = { days: [1], times: ["09:00"], timeZone: "Europe/Berlin" };
  // The Monday before the change, 09:00 CET is 08:00 UTC; the Monday after, 07:00 UTC.
  assert.equal(
    nextSlotAfter(schedule, Date.parse("2026-03-22T12:00:00Z")),
    Date.parse("2026-03-23T08:00:00Z"),
  );
  assert.equal(nextSlotAfter(schedule, Date.parse("2026-03-23T08:00:00Z")), MONDAY_NINE_SUMMER);
  assert.equal(lastSlotAtOrBefore(schedule, MONDAY_NINE_SUMMER + 60_000), MONDAY_NINE_SUMMER);
  const newYork = { days: [0, 6], times: ["07:30", "18:00"], timeZone: "America/New_York" };
  // Sunday 1 November 2026, the first day of standard time (UTC-5) in New York.
  const sunday = Date.parse("2026-11-01T12:00:00Z");
  assert.equal(nextSlotAfter(newYork, sunday), Date.parse("2026-11-01T12:30:00Z"));
  assert.equal(nextSlotAfter(newYork, sunday + 3_600_000), Date.parse("2026-11-01T23:00:00Z"));
});

Deno.test("personal reminder: my pending reviews, oldest first, with age, at 09:00 local", async () => {
  await using w = await world();
  await using worker = w.start();
  const now = MONDAY_NINE_SUMMER;
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(1, now - 3 * DAY, ["alice"]),
  });
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(2, now - 10 * DAY, ["alice", "bob"]),
  });
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(3, now - 5 * DAY, ["bob"]),
  });
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(4, now - 6 * DAY, ["alice"], { draft: true }),
  });
  await waitFor("four indexed", async () => (await indexed(w.kv, w.internalId)).size === 4);

  const reminder = reminderOf("p1", { kind: "personal", ...ALICE }, ALICE_CHAT);
  await store(w.kv, reminder, w.clock.now);
  const first = (await listJobs(w.kv)).find((job) => job.value.message.type === "reminder");
  assert.equal(first?.value.message.slot, MONDAY_NINE_SUMMER);

  w.clock.now = MONDAY_NINE_SUMMER - 3_600_000; // an hour early: nothing yet
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "p1", slot: now });
  await quiet(w.kv);
  assert.equal(w.telegram.received.length, 0);

  w.clock.now = MONDAY_NINE_SUMMER + 2_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "p1", slot: now });
  await waitFor("the reminder", () => w.telegram.received.length === 1);
  const [message] = w.telegram.received;
  assert.equal(message.chat, "777");
  const text = String(message.body.text);
  assert.match(text, /waiting on your review/);
  assert.ok(text.indexOf("octo/app#2") < text.indexOf("octo/app#1"), text);
  assert.ok(!text.includes("#3") && !text.includes("#4"), text);
  assert.match(text, /Change 2 \(10d\)/);
  assert.match(text, /Change 1 \(3d\)/);
});

Deno.test("channel reminder: older than N hours, who they wait on, linked ones mentioned", async () => {
  await using w = await world();
  await using worker = w.start();
  const now = MONDAY_NINE_SUMMER;
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(1, now - 10 * DAY, ["alice", "bob", "dave"], {
      requested_teams: [{ slug: "core" }],
    }),
  });
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(2, now - 2 * 3_600_000, ["bob"]),
  });
  await waitFor("two indexed", async () => (await indexed(w.kv, w.internalId)).size === 2);
  const reminder = reminderOf("c1", {
    kind: "channel",
    groupId: "team",
    internalId: w.internalId,
    olderThanHours: 24,
  }, CHANNEL);
  await store(w.kv, reminder, w.clock.now);
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "c1", slot: now });
  await waitFor("the channel reminder", () => w.telegram.received.length === 1);
  const [message] = w.telegram.received;
  assert.equal(message.chat, "-1001");
  const text = String(message.body.text);
  assert.match(text, /over 24h in Team/);
  assert.match(text, /octo\/app#1/);
  assert.ok(!text.includes("octo/app#2"), text);
  assert.match(text, /<a href="tg:\/\/user\?id=777">@alice<\/a>/);
  assert.match(text, /@bob/);
  assert.match(text, /@dave/);
  assert.match(text, /team octo\/core/);
});

Deno.test("an empty list sends nothing; all clear when asked", async () => {
  await using w = await world();
  await using worker = w.start();
  const now = MONDAY_NINE_SUMMER;
  const silent = reminderOf("e1", { kind: "personal", ...ALICE }, ALICE_CHAT);
  const clear = reminderOf(
    "e2",
    {
      kind: "channel",
      groupId: "team",
      internalId: w.internalId,
    },
    CHANNEL,
    true,
  );
  await store(w.kv, silent, w.clock.now);
  await store(w.kv, clear, w.clock.now);
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "e1", slot: now });
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "e2", slot: now });
  await waitFor("the all clear", () => w.telegram.received.length === 1);
  await quiet(w.kv);
  assert.equal(w.telegram.received.length, 1);
  assert.equal(w.telegram.received[0].chat, "-1001");
  assert.match(String(w.telegram.received[0].body.text), /No pull requests are waiting/);
});

Deno.test("a slot fires once across a restart (the job run again)", async () => {
  await using w = await world();
  const now = MONDAY_NINE_SUMMER;
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(1, now - 3 * DAY, ["alice"]),
  });
  const reminder = reminderOf("r1", { kind: "personal", ...ALICE }, ALICE_CHAT);
  await store(w.kv, reminder, w.clock.now);
  w.clock.now = now + 1_000;
  {
    await using first = w.start();
    await waitFor("indexed", async () => (await indexed(w.kv, w.internalId)).size === 1);
    await first.worker.handlers.reminder({ type: "reminder", reminderId: "r1", slot: now });
    await waitFor("the reminder", () => w.telegram.received.length === 1);
    await quiet(w.kv);
  }
  // A new process gets the same job again (its first run died before finishing it).
  w.clock.now = now + 60_000;
  await using second = w.start();
  await second.worker.handlers.reminder({ type: "reminder", reminderId: "r1", slot: now });
  await quiet(w.kv);
  assert.equal(w.telegram.received.length, 1);
  const slots = (await listJobs(w.kv)).filter((job) => job.value.message.type === "reminder")
    .map((job) => job.value.message.slot);
  // the job first scheduled for this slot (run by hand above), and exactly one for the next
  assert.deepEqual(slots.filter((slot) => slot !== now), [now + 7 * DAY]);
});

Deno.test("a channel reminder lists only its group's repositories, on Discord, and stops when its target is taken away", async () => {
  await using w = await world();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ telegram: w.telegram, discord }, githubEnv(w.github));
  await using worker = runWorker(w.kv, config, { now: () => w.clock.now });
  const channel: Target = { platform: "discord", channelId: "300000000000000003" };
  assert.ok((await allowTargets(w.kv, "team", [CHANNEL, channel], OPERATOR, "admin")).ok);
  await saveDiscordLink(w.kv, { discordUserId: "400000000000000004", ...BOB, linkedAt: 1 });
  // Group `other` receives a pull request of its own repository, naming Bob too.
  await putGroup(w.kv, { id: "other", name: "Other", members: [{ ...BOB, role: "owner" }] });
  const now = MONDAY_NINE_SUMMER;
  await saveEvent(w.kv, {
    provider: "github",
    kind: "pull_request",
    action: "opened",
    scope: { type: "group", groupId: "other" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({
      action: "opened",
      repository: { full_name: "elsewhere/secret" },
      pull_request: {
        ...pullObject(5, now - DAY, ["bob"]),
        html_url: "https://github.com/x/y/pull/5",
      },
    })),
  });
  await openOnePull(w, now - 2 * DAY, "bob");
  const other = (await listGroupEntries(w.kv)).find((entry) => entry.group.id === "other")!;
  await waitFor(
    "the other group's",
    async () => (await listOpenPulls(w.kv, other.internalId)).length === 1,
  );

  const reminder = reminderOf("d1", {
    kind: "channel",
    groupId: "team",
    internalId: w.internalId,
  }, channel);
  await store(w.kv, reminder, w.clock.now);
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "d1", slot: now });
  await waitFor("the Discord reminder", () => discord.received.length === 1);
  const body = discord.received[0].body as {
    content: string;
    allowed_mentions: { parse: string[]; users: string[] };
  };
  assert.equal(discord.received[0].chat, "300000000000000003");
  assert.match(body.content, /octo\/app#1/);
  assert.ok(!body.content.includes("elsewhere/secret"), body.content);
  assert.match(body.content, /waiting on <@400000000000000004>/);
  assert.deepEqual(body.allowed_mentions, { parse: [], users: ["400000000000000004"] });

  // The group may no longer post there: the next slot's list is not sent.
  assert.ok((await replaceAllowedTargets(w.kv, "team", [CHANNEL], OPERATOR)).ok);
  const next = now + 7 * DAY;
  w.clock.now = next + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "d1", slot: next });
  await quiet(w.kv);
  await waitFor("the unit to end", async () => {
    const logs = await listDeliveryLogs(w.kv, `reminder-d1-${next}`);
    return logs.length === 1 && logs[0].status === "dead";
  });
  assert.equal(discord.received.length, 1);
});

Deno.test("a personal reminder reaches a linked Discord account in its DM at 09:00 local", async () => {
  await using w = await world();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ telegram: w.telegram, discord }, githubEnv(w.github));
  await using worker = runWorker(w.kv, config, { now: () => w.clock.now });
  const aliceDiscord = "400000000000000004";
  await saveDiscordLink(w.kv, { discordUserId: aliceDiscord, ...ALICE, linkedAt: 1 });
  const now = MONDAY_NINE_SUMMER;
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(1, now - 3 * DAY, ["alice"]),
  });
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(2, now - 10 * DAY, ["alice"]),
  });
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pullObject(3, now - 5 * DAY, ["bob"]),
  });
  await waitFor("three indexed", async () => (await indexed(w.kv, w.internalId)).size === 3);
  const dm: Target = { platform: "discord", channelId: aliceDiscord };
  await store(w.kv, reminderOf("pd", { kind: "personal", ...ALICE }, dm), w.clock.now);
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "pd", slot: now });
  await waitFor("the Discord DM", () => discord.received.length === 1);
  const [message] = discord.received;
  assert.equal(message.chat, fakeDmChannelOf(aliceDiscord));
  const content = String((message.body as { content: string }).content);
  assert.match(content, /waiting on your review/);
  assert.ok(content.indexOf("octo/app#2") < content.indexOf("octo/app#1"), content);
  assert.ok(!content.includes("#3"), content);
  assert.equal(w.telegram.received.length, 0);
  // the next week's slot finds the DM channel remembered
  const next = now + 7 * DAY;
  w.clock.now = next + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "pd", slot: next });
  await waitFor("the second DM", () => discord.received.length === 2);
  assert.equal(discord.received[1].chat, fakeDmChannelOf(aliceDiscord));
  assert.deepEqual(discord.dmsOpened, [aliceDiscord]);
});

Deno.test("a personal reminder to a platform that is not configured sends nothing and says why", async () => {
  await using w = await world();
  await using worker = w.start(); // Telegram only: Discord has no bot token
  const now = MONDAY_NINE_SUMMER;
  await openOnePull(w, now - 3 * DAY, "alice");
  const dm: Target = { platform: "discord", channelId: "400000000000000004" };
  await store(w.kv, reminderOf("pu", { kind: "personal", ...ALICE }, dm), w.clock.now);
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "pu", slot: now });
  await waitFor(
    "the warning",
    () => worker.lines.some((line) => line.message === "personal reminder not sent"),
  );
  await quiet(w.kv);
  const warning = worker.lines.find((line) => line.message === "personal reminder not sent");
  assert.equal(warning?.reminderId, "pu");
  assert.equal(typeof warning?.unavailable, "string");
  assert.ok(String(warning?.unavailable).length > 0);
  assert.equal(w.telegram.received.length, 0);
});

/** An issue object as GitHub writes it, last active at `updatedAt`. */
function issueObject(number: number, updatedAt: number, labels: string[]) {
  return {
    number,
    title: `Issue ${number}`,
    html_url: `https://github.com/${REPO}/issues/${number}`,
    user: { login: "carol" },
    created_at: new Date(updatedAt - DAY).toISOString(),
    updated_at: new Date(updatedAt).toISOString(),
    state: "open",
    labels: labels.map((name) => ({ name })),
  };
}

Deno.test("stale work: pull requests and issues idle for N days, labels included and excluded, fresh ones not listed", async () => {
  await using w = await world();
  await using worker = w.start();
  const now = MONDAY_NINE_SUMMER;
  const pull = (number: number, idleDays: number, labels: string[]) =>
    pullObject(number, now - 60 * DAY, [], {
      updated_at: new Date(now - idleDays * DAY).toISOString(),
      labels: labels.map((name) => ({ name })),
    });
  await accept(w.kv, "pull_request", { action: "opened", pull_request: pull(1, 10, ["Bug"]) });
  await accept(w.kv, "pull_request", { action: "labeled", pull_request: pull(2, 1, ["bug"]) });
  await accept(w.kv, "pull_request", {
    action: "opened",
    pull_request: pull(3, 20, ["bug", "wontfix"]),
  });
  await accept(w.kv, "issues", {
    action: "opened",
    issue: issueObject(10, now - 8 * DAY, ["bug"]),
  });
  await accept(w.kv, "issues", {
    action: "opened",
    issue: issueObject(11, now - 2 * DAY, ["bug"]),
  });
  await accept(w.kv, "issues", {
    action: "opened",
    issue: issueObject(12, now - 30 * DAY, ["question"]),
  });
  await accept(w.kv, "issues", {
    action: "opened",
    issue: issueObject(13, now - 30 * DAY, ["bug"]),
  });
  await accept(w.kv, "issues", {
    action: "closed",
    issue: { ...issueObject(13, now - 29 * DAY, ["bug"]), state: "closed" },
  });
  await accept(w.kv, "issues", {
    action: "opened",
    issue: issueObject(14, now - 40 * DAY, ["bug"]),
  });
  await accept(w.kv, "issue_comment", {
    action: "created",
    issue: issueObject(14, now - 3_600_000, ["bug"]),
    comment: { body: "still here" },
  });
  await waitFor(
    "three pull requests indexed",
    async () => (await indexed(w.kv, w.internalId)).size === 3,
  );
  await waitFor("issues indexed", async () => {
    const issues = await listOpenIssues(w.kv, w.internalId);
    const fourteen = issues.find((issue) => issue.number === 14);
    return issues.length === 4 && fourteen?.updatedAt === now - 3_600_000;
  });
  const reminder = reminderOf("s1", {
    kind: "channel",
    groupId: "team",
    internalId: w.internalId,
    stale: { days: 7, labels: ["bug"], excludeLabels: ["WontFix"] },
  }, CHANNEL);
  await store(w.kv, reminder, w.clock.now);
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "s1", slot: now });
  await waitFor("the stale-work reminder", () => w.telegram.received.length === 1);
  const text = String(w.telegram.received[0].body.text);
  assert.match(text, /No activity for 7 days or more/);
  assert.match(text, /octo\/app#1<\/a> Change 1 \(pull request, idle 10d\)/);
  assert.match(text, /octo\/app#10<\/a> Issue 10 \(issue, idle 8d\)/);
  assert.ok(text.indexOf("octo/app#1<") < text.indexOf("octo/app#10<"), text);
  for (const left of ["#2<", "#3<", "#11<", "#12<", "#13<", "#14<"]) {
    assert.ok(!text.includes(left), `${left} listed: ${text}`);
  }
  assert.ok(!text.includes("waiting for review"), text); // none waits for a review
});

Deno.test("a deleted reminder, and a slot missed by more than 12 hours, send nothing", async () => {
  await using w = await world();
  await using worker = w.start();
  const now = MONDAY_NINE_SUMMER;
  await openOnePull(w, now - 3 * DAY, "alice");
  const late = reminderOf("l1", { kind: "personal", ...ALICE }, ALICE_CHAT);
  const gone = reminderOf("g1", { kind: "personal", ...ALICE }, ALICE_CHAT);
  await store(w.kv, late, w.clock.now);
  await store(w.kv, gone, w.clock.now);
  assert.ok(await deleteReminder(w.kv, { kind: "user", userId: ALICE.userId }, "g1"));
  w.clock.now = now + 13 * 3_600_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "l1", slot: now });
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "g1", slot: now });
  await quiet(w.kv);
  assert.equal(w.telegram.received.length, 0);
  const slots = (await listJobs(w.kv)).filter((job) => job.value.message.reminderId === "l1")
    .map((job) => job.value.message.slot);
  assert.ok(slots.includes(now + 7 * DAY), "the next slot is still scheduled");
});

Deno.test("the index is bounded per repository", async () => {
  await using kv = await openTestKv();
  const pull = (number: number): OpenPull => ({
    repository: REPO,
    number,
    title: `Change ${number}`,
    url: `https://github.com/${REPO}/pull/${number}`,
    author: "carol",
    createdAt: number,
    draft: false,
    reviewers: ["alice"],
    teams: [],
    updatedAt: 0,
  });
  for (let number = 1; number <= MAX_PULLS_PER_REPOSITORY; number++) {
    assert.ok(await applyPullChange(kv, "g1", { kind: "open", pull: pull(number) }));
  }
  assert.equal(await applyPullChange(kv, "g1", { kind: "open", pull: pull(999) }), false);
  // an entry already kept still changes, and a closed one makes room
  assert.ok(await applyPullChange(kv, "g1", { kind: "open", pull: { ...pull(1), title: "New" } }));
  assert.ok(
    await applyPullChange(kv, "g1", { kind: "closed", repository: REPO, number: 2, updatedAt: 0 }),
  );
  assert.ok(await applyPullChange(kv, "g1", { kind: "open", pull: pull(999) }));
  const kept = await listOpenPulls(kv, "g1");
  assert.equal(kept.length, MAX_PULLS_PER_REPOSITORY);
  assert.equal(kept.find((entry) => entry.number === 1)?.title, "New");
});

Deno.test("the index keeps the later state when an older event is processed after it", async () => {
  await using kv = await openTestKv();
  const pull = (updatedAt: number, reviewers: string[]): OpenPull => ({
    repository: REPO,
    number: 7,
    title: "Change 7",
    url: `https://github.com/${REPO}/pull/7`,
    author: "carol",
    createdAt: 1,
    draft: false,
    reviewers,
    teams: [],
    updatedAt,
  });
  assert.ok(await applyPullChange(kv, "g1", { kind: "open", pull: pull(2_000, []) }));
  // The review request (older) arrives after the review that answered it (newer).
  assert.ok(await applyPullChange(kv, "g1", { kind: "open", pull: pull(1_000, ["alice"]) }));
  assert.deepEqual((await listOpenPulls(kv, "g1"))[0].reviewers, []);
  // An older close does not remove a pull request reopened since; a later one does.
  assert.ok(
    await applyPullChange(kv, "g1", {
      kind: "closed",
      repository: REPO,
      number: 7,
      updatedAt: 1_500,
    }),
  );
  assert.equal((await listOpenPulls(kv, "g1")).length, 1);
  assert.ok(
    await applyPullChange(kv, "g1", {
      kind: "closed",
      repository: REPO,
      number: 7,
      updatedAt: 3_000,
    }),
  );
  assert.equal((await listOpenPulls(kv, "g1")).length, 0);
});

const SECRET = "octo/secret";

/**
 * Alice waits on review in {@link REPO} (#1) and {@link SECRET} (#2), both indexed and just
 * refreshed from GitHub with Bob's token (which reads both); Alice's reads `readable`. Her
 * personal reminders go to Telegram and to her Discord DMs.
 */
async function waitingInTwoRepositories(w: World, discord: FakeDiscord, readable: string[]) {
  const now = MONDAY_NINE_SUMMER;
  await saveDiscordLink(w.kv, { discordUserId: ALICE_DISCORD, ...ALICE, linkedAt: 1 });
  const token = await giveToken(w.kv, w.config, w.github, ALICE, readable);
  await giveToken(w.kv, w.config, w.github, BOB, [REPO, SECRET]);
  const first = pullObject(1, now - 3 * DAY, ["alice"]);
  const second = {
    ...pullObject(2, now - 10 * DAY, ["alice"]),
    html_url: `https://github.com/${SECRET}/pull/2`,
  };
  w.github.openPulls.set(REPO, [first]);
  w.github.openPulls.set(SECRET, [second]);
  await accept(w.kv, "pull_request", { action: "opened", pull_request: first });
  await accept(w.kv, "pull_request", {
    action: "opened",
    repository: { full_name: SECRET },
    pull_request: second,
  });
  await waitFor("both indexed", async () => (await listOpenPulls(w.kv, w.internalId)).length === 2);
  // a channel reminder's refresh, read with Bob's token, just before Alice's slot
  const { log } = captureLog();
  const as = { deps: { kv: w.kv, config: w.config }, userIds: [BOB.userId] };
  await refreshGroupPulls(as, log, w.internalId, w.clock.now);
  assert.equal((await listOpenPulls(w.kv, w.internalId)).length, 2, "Bob's token read both");
  assert.equal(discord.received.length, 0);
  return token;
}

const ALICE_DISCORD = "400000000000000004";
const ALICE_DM: Target = { platform: "discord", channelId: ALICE_DISCORD };

Deno.test("a personal reminder lists only the repositories the person's own token reads, on Telegram and Discord", async () => {
  await using w = await world();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ telegram: w.telegram, discord }, githubEnv(w.github));
  await using worker = runWorker(w.kv, config, { now: () => w.clock.now });
  const now = MONDAY_NINE_SUMMER;
  w.clock.now = now - 60_000;
  const token = await waitingInTwoRepositories(w, discord, [REPO]);
  await store(w.kv, reminderOf("pt", { kind: "personal", ...ALICE }, ALICE_CHAT), w.clock.now);
  await store(w.kv, reminderOf("pd", { kind: "personal", ...ALICE }, ALICE_DM), w.clock.now);
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "pt", slot: now });
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "pd", slot: now });
  await waitFor("both reminders", () => w.telegram.received.length + discord.received.length === 2);
  const telegram = String(w.telegram.received[0].body.text);
  const dm = String((discord.received[0].body as { content: string }).content);
  for (const text of [telegram, dm]) {
    assert.match(text, /octo\/app#1/);
    assert.ok(!text.includes(SECRET), text);
  }
  // asked of GitHub with Alice's own token, which GitHub answered 404 for SECRET
  const asked = w.github.received.filter((r) => r.path === `/repos/${SECRET}`);
  assert.ok(asked.some((r) => r.headers.get("authorization") === `Bearer ${token}`));
});

Deno.test("a personal reminder with no repository the token reads sends nothing, or the all clear when asked", async () => {
  await using w = await world();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ telegram: w.telegram, discord }, githubEnv(w.github));
  await using worker = runWorker(w.kv, config, { now: () => w.clock.now });
  const now = MONDAY_NINE_SUMMER;
  w.clock.now = now - 60_000;
  await waitingInTwoRepositories(w, discord, []);
  const silent = [
    reminderOf("st", { kind: "personal", ...ALICE }, ALICE_CHAT),
    reminderOf("sd", { kind: "personal", ...ALICE }, ALICE_DM),
  ];
  const clear = [
    reminderOf("ct", { kind: "personal", ...ALICE }, ALICE_CHAT, true),
    reminderOf("cd", { kind: "personal", ...ALICE }, ALICE_DM, true),
  ];
  for (const reminder of [...silent, ...clear]) await store(w.kv, reminder, w.clock.now);
  w.clock.now = now + 1_000;
  for (const reminder of silent) {
    await worker.worker.handlers.reminder({ type: "reminder", reminderId: reminder.id, slot: now });
  }
  await quiet(w.kv);
  assert.equal(w.telegram.received.length + discord.received.length, 0);
  for (const reminder of clear) {
    await worker.worker.handlers.reminder({ type: "reminder", reminderId: reminder.id, slot: now });
  }
  await waitFor("the all clears", () => w.telegram.received.length + discord.received.length === 2);
  assert.match(String(w.telegram.received[0].body.text), /Nothing is waiting on your review/);
  const dm = String((discord.received[0].body as { content: string }).content);
  assert.match(dm, /Nothing is waiting on your review/);
});

Deno.test("a personal reminder with a revoked token lists nothing and tells the person once to link again", async () => {
  await using w = await world();
  await using worker = w.start();
  const now = MONDAY_NINE_SUMMER;
  const token = await giveToken(w.kv, w.config, w.github, ALICE, [REPO]);
  await openOnePull(w, now - 3 * DAY, "alice");
  w.github.expireAccessToken(token);
  await store(w.kv, reminderOf("rv", { kind: "personal", ...ALICE }, ALICE_CHAT), w.clock.now);
  for (const slot of [now, now + 7 * DAY]) {
    w.clock.now = slot + 1_000;
    await worker.worker.handlers.reminder({ type: "reminder", reminderId: "rv", slot });
    await quiet(w.kv);
  }
  assert.equal(w.telegram.received.length, 1);
  const text = String(w.telegram.received[0].body.text);
  assert.match(text, /no longer works/);
  assert.match(text, /\/gh login/);
  assert.ok(!text.includes("octo/app#1"), text);
});

Deno.test("a personal reminder at 09:00 Monday lists reviews requested from me and from my teams, each once, on Telegram and Discord", async () => {
  await using w = await world();
  await using discord = startFakeDiscord();
  const config = deliveryConfig({ telegram: w.telegram, discord }, githubEnv(w.github));
  await using worker = runWorker(w.kv, config, { now: () => w.clock.now });
  await saveDiscordLink(w.kv, { discordUserId: ALICE_DISCORD, ...ALICE, linkedAt: 1 });
  // Alice's token reads REPO only and sees her team; Bob's sees octo/infra, which she is not in.
  const aliceToken = await giveToken(w.kv, w.config, w.github, ALICE, [REPO]);
  const bobToken = await giveToken(w.kv, w.config, w.github, BOB, [REPO, SECRET]);
  w.github.teams.set("octo/core", new Set(["alice", "dave"]));
  w.github.teams.set("octo/infra", new Set(["bob"]));
  const now = MONDAY_NINE_SUMMER;
  const core = [{ slug: "core" }];
  let step = 0;
  const pull = (number: number, ageDays: number, reviewers: string[], extra = {}) =>
    pullObject(number, now - ageDays * DAY, reviewers, {
      updated_at: new Date(now - DAY + ++step * 60_000).toISOString(),
      ...extra,
    });
  const events: [string, Record<string, unknown>][] = [
    ["pull_request", { action: "opened", pull_request: pull(1, 3, ["alice"]) }],
    ["pull_request", { action: "opened", pull_request: pull(2, 10, []) }],
    ["pull_request", {
      action: "review_requested",
      pull_request: pull(2, 10, [], { requested_teams: core }),
      requested_team: { slug: "core" },
    }],
    ["pull_request", {
      action: "opened",
      pull_request: pull(3, 5, [], { requested_teams: [{ slug: "infra" }] }),
    }],
    ["pull_request", {
      action: "opened",
      repository: { full_name: SECRET },
      pull_request: {
        ...pull(4, 8, [], { requested_teams: core }),
        html_url: `https://github.com/${SECRET}/pull/4`,
      },
    }],
    ["pull_request", { action: "opened", pull_request: pull(5, 6, ["alice"]) }],
    ["pull_request_review", {
      action: "submitted",
      pull_request: pull(5, 6, []),
      review: { user: { login: "alice" }, state: "approved" },
    }],
    ["pull_request", { action: "opened", pull_request: pull(6, 7, [], { requested_teams: core }) }],
    ["pull_request", {
      action: "closed",
      pull_request: pull(6, 7, [], { requested_teams: core, state: "closed" }),
    }],
    ["pull_request", {
      action: "opened",
      pull_request: pull(7, 4, ["alice"], { requested_teams: core }),
    }],
  ];
  // one at a time, each indexed before the next arrives, as GitHub sends them
  for (const [kind, payload] of events) {
    const { number, updated_at } = payload.pull_request as { number: number; updated_at: string };
    const repository = (payload.repository as { full_name: string } | undefined)?.full_name ?? REPO;
    await accept(w.kv, kind, payload);
    await waitFor(`${kind} ${payload.action} #${number} indexed`, async () => {
      const entry = (await listOpenPulls(w.kv, w.internalId))
        .find((pull) => pull.repository === repository && pull.number === number);
      return payload.action === "closed" ? !entry : entry?.updatedAt === Date.parse(updated_at);
    });
  }

  w.clock.now = now - 60_000;
  await store(w.kv, reminderOf("tt", { kind: "personal", ...ALICE }, ALICE_CHAT), w.clock.now);
  await store(w.kv, reminderOf("td", { kind: "personal", ...ALICE }, ALICE_DM), w.clock.now);
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "tt", slot: now });
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "td", slot: now });
  await waitFor("both reminders", () => w.telegram.received.length + discord.received.length === 2);
  assert.equal(w.telegram.received[0].chat, "777");
  assert.equal(discord.received[0].chat, fakeDmChannelOf(ALICE_DISCORD));
  const telegram = String(w.telegram.received[0].body.text);
  const dm = String((discord.received[0].body as { content: string }).content);
  for (const text of [telegram, dm]) {
    const lineOf = (number: number) => {
      const lines = text.split("\n").filter((line) => line.includes(`octo/app#${number}`));
      assert.equal(lines.length, 1, `#${number} listed once: ${text}`);
      return lines[0];
    };
    assert.match(text, /waiting on your review/);
    assert.match(lineOf(2), /Change 2 \(10d\) via team octo\/core/);
    assert.match(lineOf(7), /Change 7 \(4d\)/);
    assert.match(lineOf(1), /Change 1 \(3d\)/);
    assert.ok(!lineOf(7).includes("via") && !lineOf(1).includes("via"), text);
    assert.ok(text.indexOf("octo/app#2") < text.indexOf("octo/app#7"), text);
    assert.ok(text.indexOf("octo/app#7") < text.indexOf("octo/app#1"), text);
    for (const left of ["octo/app#3", "#4", "octo/app#5", "octo/app#6", SECRET, "infra"]) {
      assert.ok(!text.includes(left), `${left} listed: ${text}`);
    }
  }
  // each team's members asked of GitHub (the lookup personal notifications use): Alice's own
  // token first, then the group's other members' (Bob's sees octo/infra)
  const askedWith = (team: string) =>
    w.github.requestsTo(`/orgs/octo/teams/${team}/members`)
      .map((r) => r.headers.get("authorization"));
  assert.ok(askedWith("core").includes(`Bearer ${aliceToken}`));
  assert.ok(askedWith("infra").includes(`Bearer ${bobToken}`));
});

Deno.test("an author never waits on their own review: not in their personal list, not named in a channel's", async () => {
  await using w = await world();
  await using worker = w.start();
  w.github.teams.set("octo/core", new Set(["alice", "dave"]));
  const now = MONDAY_NINE_SUMMER;
  const byAlice = { user: { login: "Alice" } };
  const opened: Record<string, unknown>[] = [
    // Alice's own, her team requested (and, as a stale entry could hold it, herself)
    pullObject(1, now - 3 * DAY, ["alice"], { ...byAlice, requested_teams: [{ slug: "core" }] }),
    // Alice's own, with Bob requested too
    pullObject(2, now - 4 * DAY, ["alice", "bob"], byAlice),
    // Carol's, Alice requested: the only one waiting on Alice
    pullObject(3, now - 5 * DAY, ["alice"]),
  ];
  for (const pull_request of opened) {
    await accept(w.kv, "pull_request", { action: "opened", pull_request });
  }
  await waitFor("three indexed", async () => (await indexed(w.kv, w.internalId)).size === 3);
  await store(w.kv, reminderOf("mine", { kind: "personal", ...ALICE }, ALICE_CHAT), w.clock.now);
  const channel = { kind: "channel" as const, groupId: "team", internalId: w.internalId };
  await store(w.kv, reminderOf("ours", channel, CHANNEL), w.clock.now);
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "mine", slot: now });
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "ours", slot: now });
  await waitFor("both reminders", () => w.telegram.received.length === 2);
  const textTo = (chat: string) =>
    String(w.telegram.received.find((message) => message.chat === chat)?.body.text);
  const personal = textTo("777");
  assert.match(personal, /octo\/app#3/);
  assert.ok(!personal.includes("octo/app#1") && !personal.includes("octo/app#2"), personal);
  const lines = textTo("-1001").split("\n");
  const lineOf = (number: number) => lines.find((line) => line.includes(`octo/app#${number}`));
  assert.match(lineOf(1) ?? "", /waiting on team octo\/core$/);
  assert.match(lineOf(2) ?? "", /waiting on @bob$/);
  assert.match(lineOf(3) ?? "", /waiting on <a href="tg:\/\/user\?id=777">@alice<\/a>$/);
});

Deno.test("a reminder of a deleted group due at that moment sends nothing and removes itself", async () => {
  await using w = await world();
  await using worker = w.start();
  const now = MONDAY_NINE_SUMMER;
  await openOnePull(w, now - 3 * DAY, "alice");
  const scope = { kind: "channel" as const, groupId: "team", internalId: w.internalId };
  await store(w.kv, reminderOf("d1", scope, CHANNEL, true), w.clock.now);
  const set = await readGroupSet(w.kv);
  const entry = set.entries.find((e) => e.group.id === "team")!;
  const audit = newAuditEntry({ actor: ALICE, action: "group.delete", groupId: "team" }, now);
  assert.ok(
    await applyGroupChanges(w.kv, set, [{
      kind: "delete",
      groupId: "team",
      expected: entry.versionstamp,
    }], [audit]),
  );
  w.clock.now = now + 1_000;
  await worker.worker.handlers.reminder({ type: "reminder", reminderId: "d1", slot: now });
  await quiet(w.kv);
  assert.equal(w.telegram.received.length, 0);
  assert.equal(await getReminderEntry(w.kv, "d1"), null, "the reminder removed itself");
  assert.deepEqual(await listReminders(w.kv, { kind: "group", internalId: w.internalId }), []);
  // only the job first scheduled for this slot (run by hand above) is left, none for a later one
  const slots = (await listJobs(w.kv)).filter((job) => job.value.message.reminderId === "d1")
    .map((job) => job.value.message.slot);
  assert.deepEqual(slots.filter((slot) => slot !== now), [], "no next slot is scheduled");
  assert.equal(
    (await listDeliveryLogs(w.kv, `reminder-d1-${now}`)).length,
    0,
    "no unit was made for the deleted group",
  );
});
