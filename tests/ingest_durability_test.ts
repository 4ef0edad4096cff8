import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type DeliverJob,
  isDeliverJob,
  loadEvent,
  loadEventBody,
  requeueUndeliveredJobs,
} from "../lib/store/events.ts";
import { undeliveredJobKey, undeliveredJobsPrefix } from "../lib/store/keys.ts";
import { fixture, githubRequest, send, testDeps } from "./_ingest_helpers.ts";

Deno.test("an acknowledged event and its job survive closing and reopening the KV file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "switchyard-ingest-" });
  const path = join(dir, "switchyard.kv");
  try {
    const body = await fixture("pull_request/opened.payload.json");
    const first = await Deno.openKv(path);
    try {
      const request = await githubRequest(body, { delivery: "durable-1" });
      assert.deepEqual(await send(testDeps(first), request), { status: 200, body: { ok: true } });
    } finally {
      first.close();
    }

    const reopened = await Deno.openKv(path);
    const job = Promise.withResolvers<DeliverJob>();
    const listener = reopened.listenQueue((message) => {
      if (isDeliverJob(message)) job.resolve(message);
    });
    try {
      const { eventId } = await job.promise;
      assert.deepEqual(await loadEventBody(reopened, eventId), body);
      const event = await loadEvent(reopened, eventId);
      assert.equal(event?.kind, "pull_request");
      assert.equal(event?.action, "opened");
      assert.equal(event?.deliveryId, "durable-1");

      const again = await githubRequest(body, { delivery: "durable-1" });
      assert.deepEqual(await send(testDeps(reopened), again), {
        status: 200,
        body: { ok: true, duplicate: true },
      });
    } finally {
      reopened.close();
      await listener;
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadEvent() answers null for an unknown event", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    assert.equal(await loadEvent(kv, "01MISSING"), null);
    assert.equal(isDeliverJob({ type: "deliver", eventId: "x" }), true);
    assert.equal(isDeliverJob({ type: "deliver" }), false);
    assert.equal(isDeliverJob(null), false);
  } finally {
    kv.close();
  }
});

Deno.test("a deliver job KV gave up on is parked and re-queued at start-up", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await kv.set(undeliveredJobKey("01PARKED"), { type: "deliver", eventId: "01PARKED" });
    await kv.set(undeliveredJobKey("01JUNK"), { nothing: true });
    const received = Promise.withResolvers<unknown>();
    kv.listenQueue((message) => received.resolve(message));
    assert.equal(await requeueUndeliveredJobs(kv), 1);
    assert.deepEqual(await received.promise, { type: "deliver", eventId: "01PARKED" });
    const left = await Array.fromAsync(kv.list({ prefix: undeliveredJobsPrefix() }));
    assert.deepEqual(left, []);
  } finally {
    kv.close();
  }
});
