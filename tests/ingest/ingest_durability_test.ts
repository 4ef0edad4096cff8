import assert from "node:assert/strict";
import {
  isDeliverJob,
  loadEvent,
  loadEventBody,
  requeueUndeliveredJobs,
} from "../../lib/store/delivery/events.ts";
import { listJobs } from "../../lib/store/delivery/jobs.ts";
import { undeliveredJobKey, undeliveredJobsPrefix } from "../../lib/store/keys.ts";
import { fixture, githubRequest, send, testDeps } from "../_ingest_helpers.ts";
import { openTestKv, sharedTestStore } from "../../testing/test_store.ts";

Deno.test("an acknowledged event and its job survive closing and reopening the store", async () => {
  await using store = await sharedTestStore();
  {
    const body = await fixture("pull_request/opened.payload.json");
    {
      await using first = await store.open();
      const request = await githubRequest(body, { delivery: "durable-1" });
      assert.deepEqual(await send(testDeps(first), request), { status: 200, body: { ok: true } });
    }

    await using reopened = await store.open();
    {
      const [job] = await listJobs(reopened);
      const message = job.value.message;
      assert.ok(isDeliverJob(message));
      const { eventId } = message;
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
    }
  }
});

Deno.test("loadEvent() answers null for an unknown event", async () => {
  await using kv = await openTestKv();
  try {
    assert.equal(await loadEvent(kv, "01MISSING"), null);
    assert.equal(isDeliverJob({ type: "deliver", eventId: "x" }), true);
    assert.equal(isDeliverJob({ type: "deliver" }), false);
    assert.equal(isDeliverJob(null), false);
  } finally {
    kv.close();
  }
});

Deno.test("a deliver job parked by the KV queue of earlier versions is re-queued as a job", async () => {
  await using kv = await openTestKv();
  try {
    await kv.set(undeliveredJobKey("01PARKED"), { type: "deliver", eventId: "01PARKED" });
    await kv.set(undeliveredJobKey("01JUNK"), { nothing: true });
    assert.equal(await requeueUndeliveredJobs(kv), 1);
    const jobs = (await listJobs(kv)).map((job) => job.value.message);
    assert.deepEqual(jobs, [{ type: "deliver", eventId: "01PARKED" }]);
    const left = await Array.fromAsync(kv.list({ prefix: undeliveredJobsPrefix() }));
    assert.deepEqual(left, []);
  } finally {
    kv.close();
  }
});
