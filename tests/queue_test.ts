import assert from "node:assert/strict";
import { startQueueWorker } from "../lib/store/queue.ts";
import { captureLog } from "./_helpers.ts";

Deno.test("the queue worker dispatches by type and drain waits for running handlers", async () => {
  const kv = await Deno.openKv(":memory:");
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
    await kv.enqueue({ type: "slow", id: "a" });
    await started.promise;
    assert.equal(worker.inFlight(), 1);
    const drained = worker.drain(5_000);
    setTimeout(() => release(), 50);
    await drained;
    assert.deepEqual(seen, ["a"]);
    assert.equal(worker.inFlight(), 0);
  } finally {
    kv.close();
  }
});

Deno.test("drain gives up after its bound", async () => {
  const kv = await Deno.openKv(":memory:");
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
    await kv.enqueue({ type: "stuck" });
    await started.promise;
    const before = performance.now();
    await worker.drain(100);
    assert.ok(performance.now() - before < 2_000);
    assert.equal(worker.inFlight(), 1);
  } finally {
    stuck.resolve();
    kv.close();
  }
});
