/**
 * One commit per message while a lane flows: the commit that records a unit's outcome also
 * writes its message reference and marks the lane's next unit as sending. The mark is still
 * the lease check before the next call, and it still checks the group's allowlist, so a lane
 * that lost its lease, or a target removed meanwhile, gets nothing more sent.
 */
import type { Kv, KvEntry } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { createDeliveryWorker, type DeliveryWorker } from "../../lib/delivery/worker.ts";
import { utf8 } from "../../lib/encoding.ts";
import { replaceAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { laneRunKey } from "../../lib/store/keys.ts";
import type { LaneRun } from "../../lib/store/delivery/lanes.ts";
import { getMessageRef } from "../../lib/store/delivery/message_refs.ts";
import { startQueueWorker } from "../../lib/delivery/job_worker.ts";
import {
  getSendLogEntry,
  listDeliveryLogs,
  type SendLog,
} from "../../lib/store/delivery/send_logs.ts";
import { laneKeyFor } from "../../lib/target_ref.ts";
import type { Target } from "../../lib/types.ts";
import { type FakeChat, startFakeDiscord } from "../../testing/fake_chat.ts";
import { captureLog } from "../_helpers.ts";
import { fixture } from "../_ingest_helpers.ts";
import { deliveryConfig, OPERATOR, storeRoutes, waitFor } from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const CHANNEL = "4242";
const TARGET: Target = { platform: "discord", channelId: CHANNEL };

/** Pull requests 1..count opened, each accepted as the ingress does; their event ids. */
async function acceptPullRequests(kv: Kv, count: number): Promise<string[]> {
  const opened = JSON.parse(
    new TextDecoder().decode(await fixture("pull_request/opened.payload.json")),
  ) as Record<string, unknown>;
  const ids: string[] = [];
  for (let number = 1; number <= count; number++) {
    const payload = {
      ...opened,
      number,
      pull_request: {
        ...opened.pull_request as Record<string, unknown>,
        number,
        html_url: `https://github.com/Codertocat/Hello-World/pull/${number}`,
      },
    };
    const outcome = await saveEvent(kv, {
      provider: "github",
      kind: "pull_request",
      action: "opened",
      scope: { type: "global" },
      receivedAt: Date.now(),
      headers: {},
      body: utf8(JSON.stringify(payload)),
    });
    assert.equal(outcome.status, "accepted");
    if (outcome.status === "accepted") ids.push(outcome.eventId);
  }
  return ids;
}

/**
 * A worker whose lane to {@link CHANNEL} holds one unit per pull request before it starts:
 * the events are fanned out first, then the queue is started. The worker's clock stands
 * still, so the order gate's one look covers every unit however slow the machine is.
 */
async function laneOfPullRequests(
  kv: Kv,
  discord: FakeChat,
  count: number,
): Promise<{ worker: DeliveryWorker; logIds: string[]; stop(): Promise<void> }> {
  await storeRoutes(kv, [{
    id: "prs",
    name: "prs",
    enabled: true,
    groupId: "team",
    filters: [{ type: "event", value: "pull_request" }],
    targets: [TARGET],
  }]);
  // Chat-ops records a notification only for a repository its group is bound to.
  const group = await getGroup(kv, "team");
  await putGroup(kv, { ...group!, owners: ["Codertocat"] });
  const eventIds = await acceptPullRequests(kv, count);
  const startedAt = Date.now();
  const worker = createDeliveryWorker({
    kv,
    config: deliveryConfig({ discord }),
    log: captureLog().log,
    sweepEveryMs: 0,
    now: () => startedAt,
  });
  for (const eventId of eventIds) await worker.handlers.deliver({ type: "deliver", eventId });
  const logIds: string[] = [];
  for (const eventId of eventIds) {
    const [log] = await listDeliveryLogs(kv, eventId);
    logIds.push(log.id);
  }
  const queue = startQueueWorker(kv, worker.handlers, captureLog().log);
  return {
    worker,
    logIds,
    async stop() {
      await queue.drain(5_000);
      await worker.close();
    },
  };
}

async function entryOf(kv: Kv, logId: string): Promise<KvEntry<SendLog>> {
  const entry = await getSendLogEntry(kv, logId);
  assert.ok(entry, `send log ${logId}`);
  return entry;
}

Deno.test("a sent unit's outcome, its message ref and the next unit's mark are one commit", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const second = discord.holdNext(CHANNEL, 1);
  const lane = await laneOfPullRequests(kv, discord, 3);
  try {
    await second.arrived; // the second message is at Discord, its answer held
    const [first, next, last] = await Promise.all(lane.logIds.map((id) => entryOf(kv, id)));
    assert.equal(first.value.status, "ok");
    assert.equal(first.value.messageId, discord.received[0].messageId);
    assert.equal(next.value.status, "retrying");
    assert.equal(next.value.attempts, 1, "the next unit was marked before its call");
    assert.equal(
      next.versionstamp,
      first.versionstamp,
      "the mark rode on the commit that recorded the first outcome",
    );
    assert.equal(last.value.attempts, 0);
    const ref = await getMessageRef(kv, {
      platform: "discord",
      chatId: CHANNEL,
      messageId: discord.received[0].messageId,
    });
    assert.equal(ref?.subject.kind, "pull");
    assert.equal(ref?.subject.number, 1, "the message ref was written with the outcome");
  } finally {
    second.release();
  }
  await waitFor("every unit sent", async () => {
    const logs = await Promise.all(lane.logIds.map((id) => entryOf(kv, id)));
    return logs.every((log) => log.value.status === "ok");
  });
  await lane.stop();
  const numbers = discord.received.map((message) =>
    (message.body.embeds as { title: string }[])[0].title.match(/#(\d+)/)?.[1]
  );
  assert.deepEqual(numbers, ["1", "2", "3"], "each sent once, in order");
  for (const [index, id] of lane.logIds.entries()) {
    const log = await entryOf(kv, id);
    assert.equal(log.value.attempts, 1);
    const ref = await getMessageRef(kv, {
      platform: "discord",
      chatId: CHANNEL,
      messageId: log.value.messageId!,
    });
    assert.equal(ref?.subject.number, index + 1);
  }
});

Deno.test("a lane that loses its lease between two messages sends nothing more", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const first = discord.holdNext(CHANNEL);
  const lane = await laneOfPullRequests(kv, discord, 3);
  try {
    await first.arrived;
    // Another instance takes the lane while the first call is on its way.
    const key = laneRunKey(laneKeyFor(TARGET));
    const run = await kv.get<LaneRun>(key);
    assert.ok(run.value?.leaseOwner, "the lane is leased");
    await kv.set(
      key,
      {
        ...run.value,
        token: "another instance",
        leaseOwner: "another instance",
        leaseUntil: Date.now() + 60_000,
      } satisfies LaneRun,
    );
  } finally {
    first.release();
  }
  await waitFor("the first outcome", async () => {
    return (await entryOf(kv, lane.logIds[0])).value.status === "ok";
  });
  await lane.stop();
  assert.equal(discord.received.length, 1, "nothing was sent after the lease was lost");
  for (const id of lane.logIds.slice(1)) {
    const log = await entryOf(kv, id);
    assert.equal(log.value.status, "retrying");
    assert.equal(log.value.attempts, 0, "no mark without the lease");
  }
});

Deno.test("a target removed while a message is on its way gets no more, though it was allowed just before", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const first = discord.holdNext(CHANNEL);
  const lane = await laneOfPullRequests(kv, discord, 3);
  try {
    await first.arrived;
    const removed = await replaceAllowedTargets(kv, "team", [], OPERATOR);
    assert.ok(removed.ok);
  } finally {
    first.release();
  }
  await waitFor("every unit final", async () => {
    const logs = await Promise.all(lane.logIds.map((id) => entryOf(kv, id)));
    return logs.every((log) => log.value.status !== "retrying");
  });
  await lane.stop();
  assert.equal(discord.received.length, 1);
  const [sent, ...refused] = await Promise.all(lane.logIds.map((id) => entryOf(kv, id)));
  assert.equal(sent.value.status, "ok");
  for (const log of refused) {
    assert.equal(log.value.status, "dead");
    assert.equal(log.value.error, "target not allowed for group");
    assert.equal(log.value.attempts, 0);
  }
});
