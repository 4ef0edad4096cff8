/**
 * `GET /health`: liveness as before; `?ready` answers ready or not to anyone, and the readiness
 * details (queue depths, oldest waiting age) only to the bearer of METRICS_TOKEN.
 */
import assert from "node:assert/strict";
import { createApp } from "../../lib/app.ts";
import { sendLog, startAdminApp, storeSendLogs } from "../_admin_helpers.ts";
import { captureLog, startTestApp, testConfig } from "../_helpers.ts";

Deno.test("/health keeps answering liveness only", async () => {
  await using t = await startTestApp();
  const res = await t.fetch("/health");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: "ok" });
});

const METRICS_TOKEN = "metrics-token-for-tests";
const BEARER = { authorization: `Bearer ${METRICS_TOKEN}` };

Deno.test("/health?ready without the metrics token says only whether the instance is ready", async () => {
  await using admin = await startAdminApp({ METRICS_TOKEN });
  await storeSendLogs(admin.kv, [sendLog(Date.now() - 60_000, { status: "retrying" })]);
  const cases: [string, Record<string, string>][] = [
    ["no authorization", {}],
    ["another token", { authorization: "Bearer not-the-token" }],
    ["another scheme", { authorization: `Basic ${METRICS_TOKEN}` }],
  ];
  for (const [name, headers] of cases) {
    const res = await admin.t.fetch("/health?ready", { headers });
    assert.equal(res.status, 200, name);
    assert.deepEqual(await res.json(), { status: "ok", ready: true }, name);
  }
});

Deno.test("/health?ready never shows details when METRICS_TOKEN is not set", async () => {
  await using t = await startTestApp();
  const res = await t.fetch("/health?ready", { headers: BEARER });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: "ok", ready: true });
});

Deno.test("/health?ready reports an empty queue on a fresh store", async () => {
  await using t = await startTestApp({ METRICS_TOKEN });
  const res = await t.fetch("/health?ready", { headers: BEARER });
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
  await using admin = await startAdminApp({ METRICS_TOKEN });
  const now = Date.now();
  await storeSendLogs(admin.kv, [
    sendLog(now - 120_000, { status: "retrying" }),
    sendLog(now - 10_000, { status: "retrying" }),
    sendLog(now - 5_000, { status: "ok" }),
  ]);
  const res = await admin.t.fetch("/health?ready=1", { headers: BEARER });
  const body = await res.json();
  assert.equal(res.status, 200);
  assert.equal(body.queue.delivery, 2);
  assert.ok(body.oldestPendingAgeSeconds >= 120, String(body.oldestPendingAgeSeconds));
});

Deno.test("/health?ready answers 503 when KV cannot be read, with the token or without", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = createApp({ kv, config: testConfig({ METRICS_TOKEN }), log: captureLog().log });
  kv.close();
  for (const headers of [{}, BEARER]) {
    const res = await app.fetch(new Request("http://localhost/health?ready", { headers }));
    assert.equal(res.status, 503);
    assert.deepEqual(await res.json(), {
      status: "unavailable",
      error: "Storage is unavailable",
      ready: false,
    });
  }
});
