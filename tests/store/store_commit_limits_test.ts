/**
 * Every commit of the delivery path stays within the smallest per-commit limits of the
 * backends the store runs on (lib/store/commit_limits.ts): a `denokv` server refuses a commit
 * with more than 10 checks.
 */
import type { AtomicOperation, Kv } from "../../lib/store/backend/types.ts";
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

/** `kv` with the number of checks of each commit recorded in `checks`. */
function checkCountingKv(kv: Kv): { kv: Kv; checks: number[] } {
  const checks: number[] = [];
  const wrapped = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "atomic") return typeof value === "function" ? value.bind(target) : value;
      return () => {
        const op = target.atomic();
        let count = 0;
        const counted: AtomicOperation = new Proxy(op, {
          get(opTarget, name) {
            const method = Reflect.get(opTarget, name, opTarget);
            if (typeof method !== "function") return method;
            return (...args: unknown[]) => {
              if (name === "check") count += args.length;
              if (name === "commit") checks.push(count);
              const result = method.apply(opTarget, args);
              return result === opTarget ? counted : result;
            };
          },
        });
        return counted;
      };
    },
  });
  return { kv: wrapped as Kv, checks };
}

Deno.test("an event fanned out to many targets is created in commits of at most 10 checks", async () => {
  await using store = await openTestKv();
  const targets: Target[] = Array.from({ length: 12 }, (_, index) => ({
    platform: "discord",
    channelId: String(100 + index),
  }));
  await storeRoutes(store, [customRoute("wide", targets)]);
  const eventId = await acceptCustom(store, "Everywhere");
  const { kv, checks } = checkCountingKv(store);
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
  assert.ok(checks.length > 0);
  assert.ok(
    Math.max(...checks) <= MAX_CHECKS_PER_COMMIT,
    `checks per commit: ${checks.join(", ")}`,
  );
});
