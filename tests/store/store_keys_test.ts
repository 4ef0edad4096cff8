import assert from "node:assert/strict";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import {
  dedupKey,
  deliveryCounterKey,
  nonceKey,
  sendLogByStatusKey,
} from "../../lib/store/keys.ts";
import { readMetrics, utcDay } from "../../lib/store/telemetry/metrics.ts";
import { openTestKv } from "../../testing/test_store.ts";

Deno.test("typed key builders keep the key spellings stored before they were typed", () => {
  const global = { type: "global" } as const;
  assert.deepEqual(dedupKey(global, "github", "d-1"), ["dedup", "global", "github", "d-1"]);
  assert.deepEqual(
    dedupKey({ type: "group", groupId: "team" }, "gitea", "d-1"),
    ["dedup", "group:team", "gitea", "d-1"],
  );
  assert.deepEqual(nonceKey(global, "n-1"), ["nonces", "global", "n-1"]);
  assert.deepEqual(nonceKey({ type: "group", groupId: "team" }, "n-1"), [
    "nonces",
    "group:team",
    "n-1",
  ]);
  assert.deepEqual(
    deliveryCounterKey(global, "2026-01-02", "discord", "push", "ok"),
    ["delivery_counters", "all", "2026-01-02", "discord", "push", "ok"],
  );
  assert.deepEqual(
    deliveryCounterKey(
      { type: "group", internalId: "i-1" },
      "2026-01-02",
      "telegram",
      "push",
      "dead",
    ),
    ["delivery_counters", "group:i-1", "2026-01-02", "telegram", "push", "dead"],
  );
  assert.deepEqual(sendLogByStatusKey("failed", "log-1"), [
    "send_logs_by_status",
    "failed",
    "log-1",
  ]);
});

Deno.test("delivery counters stored under `all` and `group:<internal id>` are still read", async () => {
  await using kv = await openTestKv();
  const now = Date.UTC(2026, 0, 2, 12);
  const day = utcDay(now);
  await kv.atomic()
    .sum(["delivery_counters", "all", day, "discord", "push", "ok"], 3n)
    .sum(["delivery_counters", "group:i-1", day, "discord", "push", "failed"], 2n)
    .commit();
  assert.deepEqual((await readMetrics(kv, { now })).totals, {
    total: 3,
    ok: 3,
    failed: 0,
    dead: 0,
    retrying: 0,
  });
  assert.deepEqual((await readMetrics(kv, { groupInternalIds: ["i-1"], now })).totals, {
    total: 2,
    ok: 0,
    failed: 2,
    dead: 0,
    retrying: 0,
  });
});

Deno.test("a dedup mark stored under the `global` spelling still makes a repeat a duplicate", async () => {
  await using kv = await openTestKv();
  const receivedAt = Date.now();
  await kv.set(["dedup", "global", "github", "d-1"], { seenAt: receivedAt, eventId: "e-1" });
  const outcome = await saveEvent(kv, {
    provider: "github",
    kind: "push",
    deliveryId: "d-1",
    scope: { type: "global" },
    receivedAt,
    headers: {},
    body: new TextEncoder().encode("{}"),
  });
  assert.deepEqual(outcome, { status: "duplicate", eventId: "e-1" });
});
