import assert from "node:assert/strict";
import { putJob } from "../../lib/store/delivery/jobs.ts";
import { startQueueWorker } from "../../lib/delivery/job_worker.ts";
import { captureLog } from "../_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

Deno.test("the job worker dispatches by type and drain waits for running handlers", async () => {
  await using kv = await openTestKv();
  const { log } = captureLog();
  const seen: string[] = [];
  let release!: () => void;
  const started = Promise.withResolvers<void>();
  const worker = startQueueWorker(kv, {
    slow: async (message) => {
      started.resolve();
      await new Promise<void>((resolve) => release = resolve);
      seen.push(String(message.id));
    },
  }, log);
  try {
    await putJob(kv, { type: "slow", id: "a" });
    await started.promise;
    assert.equal(worker.inFlight(), 1);
    let finished = false;
    const drained = worker.drain(30_000).then(() => finished = true);
    await new Promise((resolve) => setTimeout(resolve, 0)); // one turn of the event loop
    assert.equal(finished, false, "drain waits for the running handler");
    release();
    await drained;
    assert.deepEqual(seen, ["a"]);
    assert.equal(worker.inFlight(), 0);
  } finally {
    kv.close();
  }
});

Deno.test("drain gives up after its bound", async () => {
  await using kv = await openTestKv();
  const { log } = captureLog();
  const started = Promise.withResolvers<void>();
  const stuck = Promise.withResolvers<void>();
  const worker = startQueueWorker(kv, {
    stuck: async () => {
      started.resolve();
      await stuck.promise;
    },
  }, log);
  try {
    await putJob(kv, { type: "stuck" });
    await started.promise;
    await worker.drain(100);
    assert.equal(worker.inFlight(), 1, "drain returned while the handler is still stuck");
  } finally {
    stuck.resolve();
    kv.close();
  }
});
