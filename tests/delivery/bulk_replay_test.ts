/**
 * Bulk replay (issue #26 item 5): a filter over a group's send logs is counted, then replayed
 * as the same messages or as events through the current routes, by a durable job whose
 * progress is committed with the units it puts back in their lanes. The lanes pace the sends:
 * the fakes answer with the platforms' limits and count every request.
 */
import assert from "node:assert/strict";
import type { Kv } from "../../lib/store/backend/types.ts";
import { replayPage } from "../../lib/delivery/bulk_replay.ts";
import { DiscordRateLimiter } from "../../lib/discord/rate_limit.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { listGroupEntries } from "../../lib/store/config/groups.ts";
import { listReplays } from "../../lib/store/delivery/replays.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import {
  getSendLog,
  getSendLogEntry,
  putSendLog,
  type SendLog,
} from "../../lib/store/delivery/send_logs.ts";
import { createUnit, recordOutcome } from "../../lib/store/delivery/units.ts";
import { TELEGRAM_LIMITS } from "../../lib/telegram/pacer.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import type { Route, Target } from "../../lib/types.ts";
import { utf8 } from "../../lib/encoding.ts";
import {
  DISCORD_REAL_LIMITS,
  type FakeChat,
  startFakeDiscord,
  startFakeTelegram,
  TELEGRAM_REAL_LIMITS,
} from "../../testing/fake_chat.ts";
import {
  type AdminApp,
  allowTarget,
  type Caller,
  sendLog,
  startAdminApp,
  storeSendLogs,
} from "../_admin_helpers.ts";
import {
  deliveryConfig,
  FAST_TELEGRAM,
  runWorker,
  SchedulePacer,
  waitFor,
} from "../_delivery_helpers.ts";

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const RETENTION = 30 * DAY;
const BASE = Date.now() - 2 * HOUR;
const DISCORD_A: Target = { platform: "discord", channelId: "700001" };
const DISCORD_B: Target = { platform: "discord", channelId: "700002" };
const REPLAYS = "/admin/api/groups/alpha/replays";

let serial = 0;

/** Stores a unit as delivery leaves it: created with its body, then recorded with `status`. */
async function storeUnit(kv: Kv, at: number, target: Target, fields: Partial<SendLog> = {}) {
  const internalId = (await listGroupEntries(kv)).find((e) => e.group.id === "alpha")!.internalId;
  const log = sendLog(at, {
    id: `${sendLog(at).id.slice(0, 26)}-${(serial++).toString(16)}`,
    groupInternalId: internalId,
    target,
    platform: target.platform,
    status: "failed",
    httpStatus: 500,
    ...fields,
  });
  const deliveryId = fields.deliveryId ?? `d-${log.id}`;
  const queued: SendLog = { ...log, deliveryId, status: "retrying", attempts: 0 };
  const body = target.platform === "discord" ? { content: log.id } : { text: log.id };
  assert.ok(await createUnit(kv, { log: queued, body, lane: laneKeyFor(target) }, at, RETENTION));
  const entry = (await getSendLogEntry(kv, log.id))!;
  await recordOutcome(
    kv,
    laneKeyFor(target),
    entry,
    { ...log, deliveryId },
    {
      logId: log.id,
      failures: 0,
    },
    at,
    RETENTION,
  );
  return { ...log, deliveryId };
}

/** Stores `count` failed units per target, spread over the targets in turn. */
async function storeFailed(kv: Kv, targets: Target[], count: number): Promise<SendLog[]> {
  const logs: SendLog[] = [];
  for (let i = 0; i < count * targets.length; i++) {
    logs.push(await storeUnit(kv, BASE + i, targets[i % targets.length]));
  }
  return logs;
}

async function startReplay(app: AdminApp, body: unknown, caller: Caller = "owner") {
  const answer = await app.call(caller, "POST", REPLAYS, { body });
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
  return answer.body as { id: string; total: number };
}

async function replayOf(app: AdminApp, id: string) {
  const answer = await app.call("owner", "GET", `${REPLAYS}/${id}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

/** Each message a fake accepted, by the log id it carries. */
function countsOf(...fakes: FakeChat[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of fakes.flatMap((fake) => fake.received)) {
    const id = String(message.body.content ?? message.body.text);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Runs replay pages in this process (the job worker's loop), at most `pages`. */
async function walk(kv: Kv, replayId: string, pages = Infinity) {
  const internalId = (await listGroupEntries(kv)).find((e) => e.group.id === "alpha")!.internalId;
  const ctx = { kv, now: () => Date.now(), retentionMs: RETENTION };
  for (let page = 0; page < pages; page++) {
    if (await replayPage(ctx, internalId, replayId) === "stopped") return;
  }
}

async function statuses(kv: Kv, logs: SendLog[]) {
  return await Promise.all(logs.map(async (log) => (await getSendLog(kv, log.id))!.status));
}

Deno.test("replay preview counts what a filter selects, by status, target, route, event and time", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, [
    sendLog(BASE, { status: "failed", target: DISCORD_A }),
    sendLog(BASE + 1, { status: "dead", target: DISCORD_A, event: "release" }),
    sendLog(BASE + 2, { status: "ok", target: DISCORD_A }),
    sendLog(BASE + 3, { status: "failed", target: DISCORD_B, routeId: "r2" }),
    sendLog(BASE + 4, { status: "failed", groupId: "beta", target: DISCORD_A }),
  ]);
  const preview = async (query: string) => {
    const answer = await app.call("viewer", "GET", `${REPLAYS}/preview?${query}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  assert.deepEqual(await preview(""), {
    selected: 3,
    events: 3,
    toSend: 3,
    delivered: 0,
    sending: 0,
    limit: 10_000,
  });
  assert.equal((await preview("target=discord:700001")).selected, 2);
  assert.equal((await preview("target=discord:700001&status=any")).selected, 3);
  assert.deepEqual(
    (await preview("target=discord:700001&status=any")).delivered,
    1,
    "the delivered message is counted, not sent",
  );
  assert.equal((await preview("routeId=r2")).selected, 1);
  assert.equal((await preview("event=release")).selected, 1);
  assert.equal((await preview(`from=${BASE + 1}&to=${BASE + 3}`)).selected, 1);
  assert.equal((await preview(`from=${new Date(BASE + 3).toISOString()}`)).selected, 1);
});

Deno.test("replay: bad filters and bad ids are 400, a selection over 10,000 is 400", async () => {
  await using app = await startAdminApp();
  for (
    const query of [
      "status=broken",
      "target=slack:1",
      "target=discord:abc",
      "routeId=Not%20An%20Id",
      `from=${BASE + 10}&to=${BASE}`,
      "from=yesterday",
      "mode=routes&includeDelivered=maybe",
      "includeDelivered=true",
      "unknown=1",
    ]
  ) {
    const answer = await app.call("owner", "GET", `${REPLAYS}/preview?${query}`);
    assert.equal(answer.status, 400, `${query}: ${JSON.stringify(answer.body)}`);
  }
  for (const body of [{ status: "nope" }, { includeDelivered: true }, { from: -5 }, { x: 1 }]) {
    const answer = await app.call("owner", "POST", REPLAYS, { body });
    assert.equal(answer.status, 400, JSON.stringify(body));
  }
  assert.equal((await app.call("owner", "GET", `${REPLAYS}/not-a-ulid`)).status, 400);
  const steer = await app.call("owner", "POST", `${REPLAYS}/01JAAAAAAAAAAAAAAAAAAAAAAA/state`, {
    body: { action: "explode" },
  });
  assert.equal(steer.status, 400);
  const internalId =
    (await listGroupEntries(app.kv)).find((e) => e.group.id === "alpha")!.internalId;
  for (let start = 0; start < 10_001; start += 100) {
    const op = app.kv.atomic();
    for (let i = start; i < Math.min(start + 100, 10_001); i++) {
      putSendLog(op, sendLog(BASE + i, { status: "dead", groupInternalId: internalId }), null, DAY);
    }
    assert.ok((await op.commit()).ok);
  }
  const tooMany = await app.call("owner", "GET", `${REPLAYS}/preview`);
  assert.equal(tooMany.status, 400);
  assert.match(tooMany.body.error, /more than 10000/);
  assert.equal((await app.call("owner", "POST", REPLAYS, { body: {} })).status, 400);
  assert.equal((await app.call("owner", "GET", `${REPLAYS}/preview?to=${BASE + 5}`)).status, 200);
});

Deno.test("replay: another group's owner is refused, and a replay selects only its own group", async () => {
  await using app = await startAdminApp();
  const [ours] = await storeFailed(app.kv, [DISCORD_A], 1);
  await storeSendLogs(app.kv, [sendLog(BASE + 5, { groupId: "beta", status: "failed" })]);
  assert.equal((await app.call("otherOwner", "GET", `${REPLAYS}/preview`)).status, 403);
  assert.equal((await app.call("otherOwner", "POST", REPLAYS, { body: {} })).status, 403);
  assert.equal((await app.call("viewer", "POST", REPLAYS, { body: {} })).status, 403);
  const replay = await startReplay(app, {});
  assert.equal(replay.total, 1, "beta's failed log is not selected");
  const theirs = await app.call("otherOwner", "GET", `/admin/api/groups/beta/replays/${replay.id}`);
  assert.equal(theirs.status, 404);
  const steer = await app.call("otherOwner", "POST", `${REPLAYS}/${replay.id}/state`, {
    body: { action: "cancel" },
  });
  assert.equal(steer.status, 403);
  await walk(app.kv, replay.id);
  assert.deepEqual(await statuses(app.kv, [ours]), ["retrying"]);
});

Deno.test("replay of failed messages sends each once and skips the delivered ones", async () => {
  await using app = await startAdminApp();
  await using discord = startFakeDiscord();
  await allowTarget(app.kv, "alpha", [DISCORD_A]);
  const failed = await storeFailed(app.kv, [DISCORD_A], 3);
  const delivered = [await storeUnit(app.kv, BASE + 50, DISCORD_A, { status: "ok" })];
  await using _worker = runWorker(app.kv, deliveryConfig({ discord }));
  const replay = await startReplay(app, { target: "discord:700001", status: "any" });
  assert.equal(replay.total, 4);
  await waitFor(
    "the replay to finish",
    async () => (await replayOf(app, replay.id)).state === "done",
  );
  await waitFor(
    "the failed messages to be sent",
    async () => (await statuses(app.kv, failed)).every((status) => status === "ok"),
  );
  const counts = countsOf(discord);
  assert.deepEqual([...counts.keys()].sort(), failed.map((log) => log.id).sort());
  assert.ok([...counts.values()].every((count) => count === 1));
  assert.equal(discord.requests(), 3);
  const done = await replayOf(app, replay.id);
  assert.deepEqual([done.walked, done.sent, done.skipped, done.expired], [4, 3, 1, 0]);
  assert.equal((await getSendLog(app.kv, delivered[0].id))!.attempts, 1, "left alone");
  const audit = await listAuditEntries(app.kv, { groupId: "alpha" });
  assert.ok(
    audit.some((entry) => entry.action === "replay.start" && entry.actor.login === "olivia"),
  );
});

/** A route of `alpha` sending every custom event to `targets`. */
function customRoute(targets: Target[]): Route {
  return {
    id: "custom",
    name: "custom",
    enabled: true,
    groupId: "alpha",
    filters: [{ type: "event", value: "custom" }],
    targets,
  };
}

async function acceptForAlpha(kv: Kv, title: string) {
  const outcome = await saveEvent(kv, {
    provider: "custom",
    kind: "custom",
    scope: { type: "group", groupId: "alpha" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ message: { title, text: title } })),
  });
  assert.equal(outcome.status, "accepted");
}

Deno.test("replay through the current routes skips delivered events unless asked, then sends them again", async () => {
  await using app = await startAdminApp();
  await using discord = startFakeDiscord();
  await allowTarget(app.kv, "alpha", [DISCORD_A]);
  assert.ok((await replaceRoutes(app.kv, [customRoute([DISCORD_A])])).ok);
  await using _worker = runWorker(app.kv, deliveryConfig({ discord }));
  for (const title of ["one", "two"]) await acceptForAlpha(app.kv, title);
  await waitFor("both events delivered", () => Promise.resolve(discord.received.length === 2));
  await new Promise((resolve) => setTimeout(resolve, 5));

  const skipped = await startReplay(app, { mode: "routes", status: "any" });
  await waitFor(
    "the replay to finish",
    async () => (await replayOf(app, skipped.id)).state === "done",
  );
  const first = await replayOf(app, skipped.id);
  assert.deepEqual([first.sent, first.skipped], [0, 2]);
  assert.equal(discord.received.length, 2, "nothing delivered was sent again");

  const preview = await app.call(
    "owner",
    "GET",
    `${REPLAYS}/preview?mode=routes&status=any&includeDelivered=true`,
  );
  assert.equal(preview.body.toSend, 2);
  const again = await startReplay(app, { mode: "routes", status: "any", includeDelivered: true });
  await waitFor(
    "the replay to finish",
    async () => (await replayOf(app, again.id)).state === "done",
  );
  await waitFor("both events sent again", () => Promise.resolve(discord.received.length === 4));
  const titles = discord.received.map((message) => JSON.stringify(message.body));
  assert.equal(titles.filter((body) => body.includes("one")).length, 2);
  assert.equal(titles.filter((body) => body.includes("two")).length, 2);
  assert.equal((await replayOf(app, again.id)).sent, 2);
});

Deno.test("a paused replay creates no new units and a resumed one continues where it stopped", async () => {
  await using app = await startAdminApp();
  const failed = await storeFailed(app.kv, [DISCORD_A, DISCORD_B], 10);
  const replay = await startReplay(app, {});
  assert.equal(replay.total, 20);
  await walk(app.kv, replay.id, 1);
  const afterOne = (await statuses(app.kv, failed)).filter((s) => s === "retrying").length;
  assert.ok(afterOne > 0 && afterOne < 20, `one page put back some units (${afterOne})`);
  const paused = await app.call("admin", "POST", `${REPLAYS}/${replay.id}/state`, {
    body: { action: "pause" },
  });
  assert.equal(paused.status, 200);
  assert.equal(paused.body.state, "paused");
  await walk(app.kv, replay.id);
  const whilePaused = (await statuses(app.kv, failed)).filter((s) => s === "retrying").length;
  assert.equal(whilePaused, afterOne, "no unit was put back while paused");
  const again = await app.call("admin", "POST", `${REPLAYS}/${replay.id}/state`, {
    body: { action: "pause" },
  });
  assert.equal(again.status, 409);
  const resumed = await app.call("admin", "POST", `${REPLAYS}/${replay.id}/state`, {
    body: { action: "resume" },
  });
  assert.equal(resumed.body.state, "running");
  await walk(app.kv, replay.id);
  assert.ok((await statuses(app.kv, failed)).every((status) => status === "retrying"));
  const done = await replayOf(app, replay.id);
  assert.deepEqual([done.state, done.sent, done.walked], ["done", 20, 20]);
  const actions = (await listAuditEntries(app.kv, { groupId: "alpha" })).map((e) => e.action);
  assert.deepEqual(actions.filter((a) => a.startsWith("replay.")).sort(), [
    "replay.pause",
    "replay.resume",
    "replay.start",
  ]);
  const cancel = await app.call("admin", "POST", `${REPLAYS}/${replay.id}/state`, {
    body: { action: "cancel" },
  });
  assert.equal(cancel.status, 409, "a finished replay cannot be cancelled");
});

Deno.test("a replay whose process stopped mid-way continues on restart, sending nothing twice", async () => {
  await using app = await startAdminApp();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  const targets: Target[] = [DISCORD_A, { platform: "telegram", chatId: "5001" }];
  await allowTarget(app.kv, "alpha", targets);
  const failed = await storeFailed(app.kv, targets, 15);
  const replay = await startReplay(app, {});
  await walk(app.kv, replay.id, 3); // the process that walked three pages stops here
  const before = (await replayOf(app, replay.id)).sent;
  assert.ok(before > 0 && before < 30);
  await using _worker = runWorker(app.kv, deliveryConfig({ discord, telegram }));
  await waitFor(
    "the replay to finish",
    async () => (await replayOf(app, replay.id)).state === "done",
  );
  await waitFor(
    "every failed message sent",
    async () => (await statuses(app.kv, failed)).every((status) => status === "ok"),
  );
  const counts = countsOf(discord, telegram);
  assert.equal(counts.size, 30);
  assert.ok([...counts.values()].every((count) => count === 1), "none twice");
  assert.equal(discord.requests() + telegram.requests(), 30);
  const done = await replayOf(app, replay.id);
  assert.deepEqual([done.sent, done.walked], [30, 30]);
  for (const log of failed) assert.equal((await getSendLog(app.kv, log.id))!.attempts, 2);
  assert.equal((await listReplays(app.kv, failed[0].groupInternalId!)).length, 1);
});

/** Five Discord channels and five Telegram private chats. */
const TEN_TARGETS: Target[] = [
  ...Array.from({ length: 5 }, (_, i): Target => ({
    platform: "discord",
    channelId: `71000${i}`,
  })),
  ...Array.from({ length: 5 }, (_, i): Target => ({ platform: "telegram", chatId: `6100${i}` })),
];

async function replayThroughTenTargets(
  perTarget: number,
  limits: { discord: typeof DISCORD_REAL_LIMITS; telegram: typeof TELEGRAM_LIMITS },
  timeoutMs: number,
) {
  await using app = await startAdminApp();
  await using discord = startFakeDiscord(limits.discord);
  const pacer = new SchedulePacer(limits.telegram);
  await using telegram = startFakeTelegram({
    ...TELEGRAM_REAL_LIMITS,
    ...limits.telegram,
    toleranceMs: 1,
  }, {
    sentAt: pacer.sentAt,
  });
  await allowTarget(app.kv, "alpha", TEN_TARGETS);
  const failed = await storeFailed(app.kv, TEN_TARGETS, perTarget);
  await using _worker = runWorker(app.kv, deliveryConfig({ discord, telegram }), {
    limiters: { discord: new DiscordRateLimiter(), telegram: pacer },
  });
  const replay = await startReplay(app, {});
  assert.equal(replay.total, failed.length);
  await waitFor(
    "every failed message received",
    () => Promise.resolve(discord.received.length + telegram.received.length >= failed.length),
    timeoutMs,
  );
  await waitFor(
    "every outcome recorded",
    async () => (await statuses(app.kv, failed)).every((status) => status === "ok"),
  );
  assert.equal(discord.rateLimited(), 0, "no 429 from Discord");
  assert.equal(telegram.rateLimited(), 0, "no 429 from Telegram");
  const counts = countsOf(discord, telegram);
  assert.equal(counts.size, failed.length);
  assert.ok([...counts.values()].every((count) => count === 1), "none twice");
  assert.equal(discord.requests() + telegram.requests(), failed.length);
  for (const target of TEN_TARGETS) {
    const chat = target.platform === "discord" ? target.channelId : target.chatId;
    const sent = [...discord.received, ...telegram.received].filter((m) => m.chat === chat);
    const ids = sent.map((m) => String(m.body.content ?? m.body.text));
    assert.deepEqual(ids, [...ids].sort(), `${chat}: oldest first`);
  }
  assert.equal((await replayOf(app, replay.id)).sent, failed.length);
}

Deno.test("bulk replay of 1,000 failed messages through 10 targets respects the rate limits (0 × 429) and sends none twice", async () => {
  // The platforms' limits scaled down 25 (Discord) and 100 (Telegram) times, so that 100
  // messages per target take seconds; the Discord limiter keeps its real global pace.
  await replayThroughTenTargets(100, {
    discord: { ...DISCORD_REAL_LIMITS, bucketWindowMs: 200, globalWindowMs: 40 },
    telegram: FAST_TELEGRAM,
  }, 60_000);
});

Deno.test("bulk replay through 10 targets at the platforms' real limits: 0 × 429, none twice", async () => {
  // Real limits: 5 messages per 5 s per Discord channel, 1 per second per Telegram chat.
  await replayThroughTenTargets(8, {
    discord: DISCORD_REAL_LIMITS,
    telegram: TELEGRAM_LIMITS,
  }, 60_000);
});
