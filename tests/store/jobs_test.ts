/**
 * Durable jobs (lib/store/delivery/jobs.ts) and the job worker (lib/delivery/job_worker.ts): claims that two
 * workers never share, take-over when a claim's lease runs out, backoff and the dead end,
 * due times, wake-ups across handles, drain, and the deliver job inside the ingest's commit.
 */
import assert from "node:assert/strict";
import {
  claimJob,
  type DeadJob,
  getDeadJob,
  type JobRecord,
  listDueJobs,
  listJobs,
  putJob,
} from "../../lib/store/delivery/jobs.ts";
import { requeueUndeliveredJobs } from "../../lib/store/delivery/fan_out_jobs.ts";
import { GroupCommit } from "../../lib/store/delivery/group_commit.ts";
import { jobsPrefix, undeliveredJobKey } from "../../lib/store/keys.ts";
import { type QueueMessage, startQueueWorker } from "../../lib/delivery/job_worker.ts";
import { readQueueFigures } from "../../lib/store/telemetry/queue_figures.ts";
import { utf8 } from "../../lib/encoding.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { captureLog, waitFor } from "../_helpers.ts";
import {
  customRoute,
  deliveryConfig,
  discordTitles,
  runWorker,
  settled,
  storeRoutes,
} from "../_delivery_helpers.ts";
import { openTestKv, sharedTestStore } from "../../testing/test_store.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("jobs: two competing workers run each job exactly once", async () => {
  await using kv = await openTestKv();
  const runs = new Map<string, number>();
  const handlers = {
    count: async (message: QueueMessage) => {
      const id = String(message.id);
      runs.set(id, (runs.get(id) ?? 0) + 1);
      await sleep(5);
    },
  };
  const ids = Array.from({ length: 40 }, (_, index) => `job-${index}`);
  for (const id of ids) await putJob(kv, { type: "count", id });
  const first = startQueueWorker(kv, handlers, captureLog().log, { concurrency: 4 });
  const second = startQueueWorker(kv, handlers, captureLog().log, { concurrency: 4 });
  try {
    await waitFor("every job to run", () => runs.size === ids.length);
    await waitFor("every job to be finished", async () => (await listJobs(kv)).length === 0);
    await sleep(100);
    assert.deepEqual([...runs.values()].filter((count) => count !== 1), []);
  } finally {
    await first.drain(1_000);
    await second.drain(1_000);
  }
});

Deno.test("jobs: a job claimed by a worker that died is taken over when its lease runs out", async () => {
  await using kv = await openTestKv();
  await putJob(kv, { type: "work" });
  const [waiting] = (await listDueJobs(kv, Date.now(), 10)).due;
  const claimedAt = Date.now();
  const claimed = await claimJob(kv, waiting, "dead-owner", claimedAt, 600);
  assert.ok(claimed, "the first claim wins");
  assert.equal(await claimJob(kv, waiting, "someone-else", Date.now(), 600), null);
  let ranAt = 0;
  const worker = startQueueWorker(
    kv,
    {
      work: () => {
        ranAt = Date.now();
        return Promise.resolve();
      },
    },
    captureLog().log,
    { pollMs: 100 },
  );
  try {
    await sleep(300);
    assert.equal(ranAt, 0, "not while the dead owner's lease lasts");
    await waitFor("the job to be taken over", () => ranAt > 0);
    assert.ok(ranAt >= claimedAt + 600, "only after the lease ran out");
    await waitFor("the job to be finished", async () => (await listJobs(kv)).length === 0);
  } finally {
    await worker.drain(1_000);
  }
});

Deno.test("jobs: a failing job backs off and ends dead with its reason", async () => {
  await using kv = await openTestKv();
  await putJob(kv, { type: "broken" });
  const tries: number[] = [];
  const worker = startQueueWorker(
    kv,
    {
      broken: () => {
        tries.push(Date.now());
        return Promise.reject(new Error("the platform is down"));
      },
    },
    captureLog().log,
    { maxAttempts: 3, backoffMs: [150, 300], pollMs: 50 },
  );
  try {
    await waitFor("the job to end dead", async () => {
      const dead = await Array.fromAsync(kv.list<DeadJob>({ prefix: ["jobs_dead"] }));
      return dead.length === 1;
    });
    assert.equal(tries.length, 3);
    assert.ok(tries[1] - tries[0] >= 150, "the first retry waited its backoff");
    assert.ok(tries[2] - tries[1] >= 300, "the second retry waited longer");
    const [entry] = await Array.fromAsync(kv.list<DeadJob>({ prefix: ["jobs_dead"] }));
    const dead = await getDeadJob(kv, String(entry.key[1]));
    assert.equal(dead?.attempts, 3);
    assert.equal(dead?.message.type, "broken");
    assert.match(dead?.reason ?? "", /the platform is down/);
    assert.deepEqual(await listJobs(kv), [], "nothing is left to run");
    assert.equal((await readQueueFigures(kv)).parkedJobs, 1, "health and metrics count it");
  } finally {
    await worker.drain(1_000);
  }
});

Deno.test("jobs: a deliver job that fails its last attempt is parked for the sweep to re-queue", async () => {
  await using kv = await openTestKv();
  const group = new GroupCommit(kv, { windowMs: 0 });
  const outcome = await group.save({
    provider: "custom",
    kind: "custom",
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ message: { title: "Parked", text: "x" } })),
  });
  assert.equal(outcome.status, "accepted");
  const eventId = outcome.status === "accepted" ? outcome.eventId : "";
  const worker = startQueueWorker(
    kv,
    {
      deliver: () => Promise.reject(new Error("routes unreadable")),
    },
    captureLog().log,
    { maxAttempts: 2, backoffMs: [10], pollMs: 50 },
  );
  try {
    await waitFor("the job to be parked", async () => {
      return (await kv.get(undeliveredJobKey(eventId))).versionstamp !== null;
    });
  } finally {
    await worker.drain(1_000);
  }
  const parked = (await kv.get<DeadJob>(undeliveredJobKey(eventId))).value;
  assert.deepEqual(parked?.message, { type: "deliver", eventId });
  assert.match(parked?.reason ?? "", /routes unreadable/);
  assert.equal(await requeueUndeliveredJobs(kv), 1);
  const [again] = await listJobs(kv);
  assert.deepEqual(again.value.message, { type: "deliver", eventId });
  assert.equal(again.value.attempts, 0, "re-queued with fresh attempts");
});

Deno.test("jobs: a delayed job does not run early and runs within a second of its due time", async () => {
  await using kv = await openTestKv();
  const addedAt = Date.now();
  await putJob(kv, { type: "later" }, { delayMs: 1_500 });
  let ranAt = 0;
  const worker = startQueueWorker(kv, {
    later: () => {
      ranAt = Date.now();
      return Promise.resolve();
    },
  }, captureLog().log);
  try {
    await waitFor("the delayed job", () => ranAt > 0);
    assert.ok(ranAt >= addedAt + 1_500, `ran ${ranAt - addedAt} ms after it was added`);
    assert.ok(ranAt < addedAt + 2_500, `ran ${ranAt - addedAt} ms after it was added`);
  } finally {
    await worker.drain(1_000);
  }
});

Deno.test("jobs: a job added in the worker's process wakes it at once", async () => {
  await using kv = await openTestKv();
  const ran = Promise.withResolvers<number>();
  const worker = startQueueWorker(
    kv,
    {
      now: () => Promise.resolve(ran.resolve(Date.now())),
    },
    captureLog().log,
    { pollMs: 10_000 },
  );
  try {
    await sleep(50); // the worker looked once and sleeps for its whole poll
    const addedAt = Date.now();
    await putJob(kv, { type: "now" });
    const ranAt = await ran.promise;
    assert.ok(ranAt - addedAt < 500, `ran ${ranAt - addedAt} ms after it was added`);
  } finally {
    await worker.drain(1_000);
  }
});

Deno.test("jobs: a job added through another handle of the store is picked up within a second", async () => {
  await using store = await sharedTestStore();
  {
    const workerKv = await store.open();
    const otherKv = await store.open();
    const ran = Promise.withResolvers<number>();
    const worker = startQueueWorker(workerKv, {
      elsewhere: () => Promise.resolve(ran.resolve(Date.now())),
    }, captureLog().log);
    try {
      await sleep(50);
      const addedAt = Date.now();
      await putJob(otherKv, { type: "elsewhere" });
      const ranAt = await ran.promise;
      assert.ok(ranAt - addedAt < 1_200, `ran ${ranAt - addedAt} ms after it was added`);
    } finally {
      await worker.drain(1_000);
    }
  }
});

Deno.test("jobs: drain leaves jobs not yet started for the next worker", async () => {
  await using kv = await openTestKv();
  const started: string[] = [];
  const release = Promise.withResolvers<void>();
  const handlers = {
    step: async (message: QueueMessage) => {
      started.push(String(message.id));
      if (message.id === "first") await release.promise;
    },
  };
  await putJob(kv, { type: "step", id: "first" });
  const first = startQueueWorker(kv, handlers, captureLog().log, { concurrency: 1 });
  await waitFor("the first job to start", () => started.length === 1);
  await putJob(kv, { type: "step", id: "second" });
  const drained = first.drain(5_000);
  release.resolve();
  await drained;
  assert.deepEqual(started, ["first"], "the draining worker started nothing more");
  const left = await Array.fromAsync(kv.list<JobRecord>({ prefix: jobsPrefix() }));
  assert.deepEqual(left.map((entry) => [entry.value.message.id, entry.value.attempts]), [
    ["second", 0],
  ]);
  const next = startQueueWorker(kv, handlers, captureLog().log);
  try {
    await waitFor("the next worker to run it", () => started.length === 2);
    assert.deepEqual(started, ["first", "second"]);
  } finally {
    await next.drain(1_000);
  }
});

Deno.test("jobs: an event accepted by a process killed before its worker ran is still delivered", async () => {
  await using store = await sharedTestStore();
  await using discord = startFakeDiscord();
  {
    {
      await using kv = await store.open();
      await storeRoutes(kv, [customRoute("alerts", [{ platform: "discord", channelId: "7" }])]);
    }
    const script = `
      import { saveEvent } from "${
      new URL("../../lib/store/delivery/events.ts", import.meta.url).href
    }";
      import { openStore } from "${new URL("../../lib/store/kv.ts", import.meta.url).href}";
      const kv = await openStore(${JSON.stringify(store.settings)});
      const outcome = await saveEvent(kv, {
        provider: "custom", kind: "custom", scope: { type: "global" }, receivedAt: Date.now(),
        headers: {}, body: new TextEncoder().encode(JSON.stringify({ message: { title: "Survivor", text: "x" } })),
      });
      console.log(JSON.stringify(outcome));
      await new Promise(() => {}); // stays up until killed
    `;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--unstable-kv", script],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let line = "";
    while (!line.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      line += value;
    }
    child.kill("SIGKILL");
    await child.status;
    await reader.cancel();
    const outcome = JSON.parse(line);
    assert.equal(outcome.status, "accepted");

    await using kv = await store.open();
    const [job] = await listJobs(kv);
    assert.deepEqual(job.value.message, { type: "deliver", eventId: outcome.eventId });
    await using _running = runWorker(kv, deliveryConfig({ discord }));
    await settled(kv, outcome.eventId);
    assert.deepEqual(discordTitles(discord), ["Survivor"]);
  }
});
