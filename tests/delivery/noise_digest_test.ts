/**
 * Digests: a burst of 100 events under a route with `digest` reaches Discord and Telegram as
 * the first `threshold` messages plus one digest, edited and closed with the count and links;
 * every event keeps its send log, marked with the digest.
 */
import assert from "node:assert/strict";
import {
  type DigestRecord,
  getDigestEntry,
  isDigestCloseJob,
} from "../../lib/store/delivery/digests.ts";
import { createDeliveryWorker } from "../../lib/delivery/worker.ts";
import { digestClosedBy } from "../../lib/delivery/digest_close.ts";
import { appendLaneEntry, readLaneEntries } from "../../lib/store/delivery/lanes.ts";
import { digestKey } from "../../lib/store/keys.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import { ulid } from "../../lib/ulid.ts";
import type { Kv } from "../../lib/store/backend/types.ts";
import { captureLog } from "../_helpers.ts";
import { readCountingKv } from "../_kv_commits.ts";
import type { SendLog } from "../../lib/store/delivery/send_logs.ts";
import type { Route } from "../../lib/types.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  runWorker,
  settled,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const DISCORD = { platform: "discord" as const, channelId: "100" };
const TELEGRAM = { platform: "telegram" as const, chatId: "-100200" };

function digestRoute(threshold: number): Route {
  return {
    ...customRoute("burst", [DISCORD, TELEGRAM]),
    name: "Deploys",
    digest: { windowSeconds: 60, threshold },
  };
}

Deno.test("digest: a burst of 100 events makes 5 messages and one digest per target, nothing lost", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await storeRoutes(kv, [digestRoute(5)]);
  let offsetMs = 0;
  await using running = runWorker(kv, deliveryConfig({ discord, telegram }), {
    now: () => Date.now() + offsetMs,
  });

  const eventIds: string[] = [];
  for (let i = 1; i <= 100; i++) eventIds.push(await acceptCustom(kv, `Event ${i}`));
  const logs: SendLog[] = [];
  for (const id of eventIds) logs.push(...await settled(kv, id, 2));

  for (const platform of ["discord", "telegram"]) {
    const mine = logs.filter((log) => log.platform === platform);
    assert.equal(mine.length, 100);
    assert.ok(mine.every((log) => log.status === "ok"), "every unit ends ok");
    const direct = mine.filter((log) => log.digestId === undefined);
    const digested = mine.filter((log) => log.digestId !== undefined);
    assert.deepEqual(direct.map((log) => log.eventId), eventIds.slice(0, 5), "the first five");
    assert.equal(digested.length, 95);
    assert.equal(new Set(digested.map((log) => log.digestId)).size, 1, "one digest");
    assert.equal(new Set(digested.map((log) => log.messageId)).size, 1, "one digest message");
  }

  const discordTexts = discordTitles(discord, "100");
  assert.deepEqual(discordTexts.slice(0, 5), [
    "Event 1",
    "Event 2",
    "Event 3",
    "Event 4",
    "Event 5",
  ]);
  assert.equal(discordTexts.length, 6, "five messages and one digest on Discord");
  assert.match(discordTexts[5], /^\d+ events? more so far: Deploys$/);
  assert.equal(telegram.received.length, 6, "five messages and one digest on Telegram");
  assert.match(String(telegram.received[5].body.text), /more so far: Deploys/);

  const digestIds = [...new Set(logs.flatMap((log) => log.digestId ?? []))];
  assert.equal(digestIds.length, 2, "one digest per target");
  const close = (digestId: string) =>
    running.worker.handlers.digest_close({ type: "digest_close", digestId });
  assert.ok(isDigestCloseJob({ type: "digest_close", digestId: digestIds[0] }));
  for (const id of digestIds) await close(id);
  assert.equal(discord.received.length, 6, "closing early changes nothing");
  const editsBefore = discord.edits.length;
  offsetMs = 61_000;
  for (const id of [...digestIds, ...digestIds]) await close(id);

  assert.equal(discord.received.length, 6, "closing posts nothing new");
  assert.equal(discord.edits.length, editsBefore + 1, "one closing edit");
  const final = discord.edits.at(-1)!;
  assert.equal(final.messageId, discord.received[5].messageId);
  const embed = (final.body.embeds as { title: string; description: string }[])[0];
  assert.equal(embed.title, "95 events more: Deploys");
  assert.match(embed.description, /Event 6/);
  assert.match(embed.description, /Event 25/);
  assert.doesNotMatch(embed.description, /Event 26\b/);
  assert.match(embed.description, /and 75 more/);
  assert.match(embed.description, /Digest closed\./);

  const telegramFinal = telegram.edits.at(-1)!;
  assert.equal(telegramFinal.messageId, telegram.received[5].messageId);
  assert.equal(telegramFinal.body.chat_id, "-100200");
  assert.match(String(telegramFinal.body.text), /<b>95 events more: Deploys<\/b>/);
  assert.match(String(telegramFinal.body.text), /and 75 more/);
});

Deno.test("digest: a new window after the first ends sends as usual again", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [{ ...digestRoute(1), targets: [DISCORD] }]);
  let offsetMs = 0;
  await using running = runWorker(kv, deliveryConfig({ discord }), {
    now: () => Date.now() + offsetMs,
  });
  const first: SendLog[] = [];
  for (const title of ["A", "B", "C"]) {
    first.push(...await settled(kv, await acceptCustom(kv, title), 1));
  }
  offsetMs = 61_000;
  for (const title of ["D", "E"]) await settled(kv, await acceptCustom(kv, title), 1);
  assert.deepEqual(discordTitles(discord, "100"), [
    "A",
    "1 event more so far: Deploys",
    "D",
    "1 event more so far: Deploys",
  ]);
  const digestId = first.at(-1)!.digestId!;
  assert.equal(first[1].digestId, digestId, "B and C share the first window's digest");
  await running.worker.handlers.digest_close({ type: "digest_close", digestId });
  const closing = discord.edits.at(-1)!;
  assert.equal(closing.messageId, discord.received[1].messageId);
  const embed = (closing.body.embeds as { title: string; description: string }[])[0];
  assert.equal(embed.title, "2 events more: Deploys");
  assert.match(embed.description, /B\n• C/);
});

Deno.test("digest: a digest post that fails is tried again with its unit, and counted once", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [{ ...digestRoute(1), targets: [DISCORD] }]);
  discord.script("100", [
    { status: 200, body: { id: "555", channel_id: "100" } },
    { status: 500, body: { message: "try later" } },
  ]);
  let offsetMs = 0;
  await using running = runWorker(kv, deliveryConfig({ discord }), {
    now: () => Date.now() + offsetMs,
  });
  const logs: SendLog[] = [];
  for (const title of ["A", "B", "C"]) {
    logs.push(...await settled(kv, await acceptCustom(kv, title), 1));
  }
  const [a, b, c] = logs;
  assert.equal(a.messageId, "555");
  assert.equal(a.digestId, undefined);
  assert.equal(b.attempts, 2, "the failed digest post was tried again");
  assert.deepEqual([b.status, c.status], ["ok", "ok"]);
  assert.equal(b.digestId, c.digestId);
  assert.deepEqual(discordTitles(discord, "100"), ["1 event more so far: Deploys"]);
  assert.equal(b.messageId, discord.received[0].messageId);
  offsetMs = 61_000;
  await running.worker.handlers.digest_close({ type: "digest_close", digestId: b.digestId! });
  const embed = (discord.edits.at(-1)!.body.embeds as { title: string }[])[0];
  assert.equal(embed.title, "2 events more: Deploys", "B once, C once");
});

/**
 * An open digest as a version that closed digests through a KV queue left it: its window ended
 * a minute ago, and nothing (no job, no lane entry) will close it.
 */
async function strandedDigest(kv: Kv, hash = "a1".repeat(12)): Promise<DigestRecord> {
  const now = Date.now();
  const digest: DigestRecord = {
    id: `burst-${hash}`,
    kind: "burst",
    groupId: "team",
    routeId: "burst",
    routeName: "Deploys",
    target: DISCORD,
    opensAt: now - 120_000,
    closesAt: now - 60_000,
    direct: 1,
    count: 2,
    items: [{ title: "B" }, { title: "C" }],
    shownCount: 0,
    closed: false,
  };
  await kv.set(digestKey(digest.id), digest);
  return digest;
}

/** The lane entries that close `digestId`. */
async function closeEntries(kv: Kv, digestId: string): Promise<string[]> {
  const { entries } = await readLaneEntries(kv, laneKeyFor(DISCORD), 100);
  return entries.map((entry) => entry.value.logId).filter((id) => digestClosedBy(id) === digestId);
}

/** A delivery worker that only sweeps (no job runs), its clock `offsetMs` (or `clock()`) ahead. */
function sweeperOnly(kv: Kv, offsetMs: number | (() => number)) {
  const ahead = typeof offsetMs === "number" ? () => offsetMs : offsetMs;
  return createDeliveryWorker({
    kv,
    config: deliveryConfig({}),
    log: captureLog().log,
    sweepEveryMs: 0,
    stallMs: 1_000,
    holdMs: 50,
    now: () => Date.now() + ahead(),
  });
}

Deno.test("digest: an open digest an older version left without a close is closed once by the sweep, whichever instances sweep", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [{ ...digestRoute(1), targets: [DISCORD] }]);
  const digest = await strandedDigest(kv);

  const first = sweeperOnly(kv, 0);
  const second = sweeperOnly(kv, 10_000); // its sweep takes over the first one's lease
  try {
    const together = await Promise.all([first.sweep(), second.sweep()]);
    assert.equal(together.reduce((sum, report) => sum + (report.digests ?? 0), 0), 1);
    assert.equal((await second.sweep()).digests, 0, "the close is already in the lane");
    assert.equal((await first.sweep()).digests, null, "the second instance holds the sweep");
  } finally {
    await first.close();
    await second.close();
  }
  assert.equal((await closeEntries(kv, digest.id)).length, 1, "one close in the lane");

  await using running = runWorker(kv, deliveryConfig({ discord }));
  await waitFor(
    "the digest to be closed",
    async () => (await getDigestEntry(kv, digest.id)).value?.closed === true,
  );
  await running.worker.sweep();
  assert.deepEqual(discordTitles(discord, "100"), ["2 events more: Deploys"]);
  assert.deepEqual(await closeEntries(kv, digest.id), []);
});

Deno.test("digest: the sweep looks for stranded digests on its first sweep, then not again within the hour", async () => {
  await using store = await openTestKv();
  await storeRoutes(store, [{ ...digestRoute(1), targets: [DISCORD] }]);
  const { kv, reads } = readCountingKv(store, ["digests"]);
  const first = await strandedDigest(store);
  let offsetMs = 0;
  const sweeper = sweeperOnly(kv, () => offsetMs);
  try {
    assert.equal((await sweeper.sweep()).digests, 1, "the first sweep closes what was left");
    assert.equal(reads("list"), 1);
    assert.equal(reads("get"), 0, "each digest is read once, by the list");
    assert.equal((await closeEntries(store, first.id)).length, 1);

    const second = await strandedDigest(store, "b2".repeat(12));
    offsetMs = 10_000;
    const before = reads();
    assert.equal((await sweeper.sweep()).digests, 0, "the next sweep does not look");
    assert.equal(reads(), before, "no digest read");
    assert.deepEqual(await closeEntries(store, second.id), []);

    offsetMs = 61 * 60_000;
    assert.equal((await sweeper.sweep()).digests, 1, "an hour later it looks again");
    assert.equal((await closeEntries(store, second.id)).length, 1);
  } finally {
    await sweeper.close();
  }
});

Deno.test("digest: the closing job reads the digest once", async () => {
  await using store = await openTestKv();
  await storeRoutes(store, [{ ...digestRoute(1), targets: [DISCORD] }]);
  const digest = await strandedDigest(store);
  const { kv, reads } = readCountingKv(store, ["digests"]);
  const worker = sweeperOnly(kv, 0);
  try {
    await worker.handlers.digest_close({ type: "digest_close", digestId: digest.id });
  } finally {
    await worker.close();
  }
  assert.equal(reads(), 1);
  assert.equal((await closeEntries(store, digest.id)).length, 1, "its close is in the lane");
  assert.ok((await getDigestEntry(store, digest.id)).value?.closeQueuedAt !== undefined);
});

Deno.test("digest: an open digest whose close an older version already put in the lane gets no second one", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [{ ...digestRoute(1), targets: [DISCORD] }]);
  const digest = await strandedDigest(kv);
  const queued = `${ulid(digest.closesAt)}-close_${digest.id.replace("-", "_")}`;
  assert.ok(await appendLaneEntry(kv, laneKeyFor(DISCORD), { logId: queued, failures: 0 }, 0));
  const sweeper = sweeperOnly(kv, 0);
  try {
    assert.equal((await sweeper.sweep()).digests, 0);
  } finally {
    await sweeper.close();
  }
  assert.deepEqual(await closeEntries(kv, digest.id), [queued]);
  await using _running = runWorker(kv, deliveryConfig({ discord }));
  await waitFor(
    "the digest to be closed",
    async () => (await getDigestEntry(kv, digest.id)).value?.closed === true,
  );
  assert.deepEqual(discordTitles(discord, "100"), ["2 events more: Deploys"]);
});

Deno.test("digest: a close the platform keeps failing past the retry bounds is given up, logged and marked closed", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await storeRoutes(kv, [{ ...digestRoute(1), targets: [DISCORD] }]);
  const digest = await strandedDigest(kv);
  const queued = `${ulid(digest.closesAt)}-close_${digest.id.replace("-", "_")}`;
  // its last retry: the next failure is past the bounds
  assert.ok(await appendLaneEntry(kv, laneKeyFor(DISCORD), { logId: queued, failures: 99 }, 0));
  discord.script("100", [{ status: 500, body: { message: "down" } }]);
  await using running = runWorker(kv, deliveryConfig({ discord }));
  // The digest is marked closed, then its close leaves the lane: wait for both.
  await waitFor(
    "the close to be given up and leave the lane",
    async () =>
      (await getDigestEntry(kv, digest.id)).value?.closed === true &&
      (await closeEntries(kv, digest.id)).length === 0,
  );
  assert.equal(discord.received.length, 0, "nothing was posted");
  assert.ok(
    running.lines.some((line) => line.message === "digest not sent" && line.digestId === digest.id),
    "the give-up is logged with the digest",
  );
});
