/**
 * Every commit of the delivery path stays within the smallest per-commit limits of the
 * backends the store runs on (lib/store/commit_limits.ts): a `denokv` server refuses a commit
 * with more than 10 checks.
 */
import assert from "node:assert/strict";
import { createDeliveryWorker } from "../../lib/delivery/worker.ts";
import { MAX_CHECKS_PER_COMMIT } from "../../lib/store/commit_limits.ts";
import type { Target } from "../../lib/types.ts";
import { captureLog } from "../_helpers.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  logsOf,
  storeRoutes,
} from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { commitRecordingKv } from "../_kv_commits.ts";

Deno.test("an event fanned out to many targets is created in commits of at most 10 checks", async () => {
  await using store = await openTestKv();
  const targets: Target[] = Array.from({ length: 12 }, (_, index) => ({
    platform: "discord",
    channelId: String(100 + index),
  }));
  await storeRoutes(store, [customRoute("wide", targets)]);
  const eventId = await acceptCustom(store, "Everywhere");
  const { kv, commits } = commitRecordingKv(store);
  const worker = createDeliveryWorker({
    kv,
    config: deliveryConfig({}),
    log: captureLog().log,
    sweepEveryMs: 0,
  });
  try {
    await worker.handlers.deliver({ type: "deliver", eventId });
  } finally {
    await worker.close();
  }
  assert.equal((await logsOf(store, eventId)).length, targets.length, "every unit exists");
  const checks = commits.map((commit) => commit.checks);
  assert.ok(checks.length > 0);
  assert.ok(
    Math.max(...checks) <= MAX_CHECKS_PER_COMMIT,
    `checks per commit: ${checks.join(", ")}`,
  );
});
