/** `GET /health`: liveness as before, readiness details with `?ready`. */
import assert from "node:assert/strict";
import { createApp } from "../lib/app.ts";
import { sendLog, startAdminApp, storeSendLogs } from "./_admin_helpers.ts";
import { captureLog, startTestApp, testConfig } from "./_helpers.ts";

Deno.test("/health keeps answering liveness only", async () => {
  await using t = await startTestApp();
  const res = await t.fetch("/health");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: "ok" });
});

Deno.test("/health?ready reports an empty queue on a fresh store", async () => {
  await using t = await startTestApp();
  const res = await t.fetch("/health?ready");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    status: "ok",
    ready: true,
    kv: "ok",
    queue: { delivery: 0, fanOut: 0, parked: 0, capped: false },
    oldestPendingAgeSeconds: 0,
  });
});

Deno.test("/health?ready counts waiting units and the oldest one's age", async () => {
  await using admin = await startAdminApp();
  const now = Date.now();
  await storeSendLogs(admin.kv, [
    sendLog(now - 120_000, { status: "retrying" }),
    sendLog(now - 10_000, { status: "retrying" }),
    sendLog(now - 5_000, { status: "ok" }),
  ]);
  const res = await admin.t.fetch("/health?ready=1");
  const body = await res.json();
  assert.equal(res.status, 200);
  assert.equal(body.queue.delivery, 2);
  assert.ok(body.oldestPendingAgeSeconds >= 120, String(body.oldestPendingAgeSeconds));
});

Deno.test("/health?ready answers 503 when KV cannot be read", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = createApp({ kv, config: testConfig(), log: captureLog().log });
  kv.close();
  const res = await app.fetch(new Request("http://localhost/health?ready"));
  assert.equal(res.status, 503);
  const body = await res.json();
  assert.equal(body.ready, false);
  assert.equal(typeof body.error, "string");
});
