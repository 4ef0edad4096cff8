import assert from "node:assert/strict";
import { join } from "node:path";
import {
  isDeliverJob,
  loadEvent,
  loadEventBody,
  requeueUndeliveredJobs,
} from "../lib/store/events.ts";
import { listJobs } from "../lib/store/jobs.ts";
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
    try {
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
    } finally {
      reopened.close();
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

Deno.test("a deliver job parked by the KV queue of earlier versions is re-queued as a job", async () => {
  const kv = await Deno.openKv(":memory:");
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
