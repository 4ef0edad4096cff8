/**
 * The ingress while the store cannot be reached: the sender is told to try again later (503
 * with Retry-After), not that the request failed for good, and nothing is half stored. Once the
 * store answers again, the same delivery is accepted once.
 */
import assert from "node:assert/strict";
import { handleWebhook, type IngestResult } from "../../lib/ingest/handle.ts";
import { StoreUnavailableError } from "../../lib/store/backend/errors.ts";
import type { AtomicOperation, Kv } from "../../lib/store/backend/types.ts";
import { closeStore, openStore } from "../../lib/store/kv.ts";
import { startTestPostgres } from "../../testing/postgres.ts";
import { startTcpProxy } from "../../testing/tcp_proxy.ts";
import { fixture, githubRequest, keysUnder, testDeps } from "../_ingest_helpers.ts";

const DELIVERY = "5d6c9e10-0a3b-11f1-8a2e-2b1e5f0c7d11";

const probe = await startTestPostgres();
await probe?.stop();

/** `kv` with every atomic commit refused as an unreachable database refuses it. */
function unreachableCommits(kv: Kv): Kv {
  return new Proxy(kv, {
    get(target, property) {
      if (property !== "atomic") {
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => {
        const op = target.atomic();
        const refusing: AtomicOperation = new Proxy(op, {
          get(inner, name) {
            if (name === "commit") {
              return () => Promise.reject(new StoreUnavailableError(new Error("ECONNREFUSED")));
            }
            const method = Reflect.get(inner, name);
            if (typeof method !== "function") return method; // an optional method it lacks
            return (...args: unknown[]) => {
              method.apply(inner, args);
              return refusing;
            };
          },
        });
        return refusing;
      };
    },
  });
}

Deno.test("ingress: a store that refuses commits as unreachable answers 503 with Retry-After", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const observed: IngestResult[] = [];
    const deps = testDeps(unreachableCommits(kv), { observe: (result) => observed.push(result) });
    const body = await fixture("push/payload.json");
    const response = await handleWebhook(
      deps,
      await githubRequest(body, { event: "push", delivery: DELIVERY }),
    );
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), "1");
    assert.deepEqual(await response.json(), {
      error: "Temporarily unavailable: try again in a moment",
    });
    assert.deepEqual(observed, [{ outcome: "failed", status: 503 }]);
    assert.deepEqual(await keysUnder(kv, ["events"]), [], "nothing stored");
  } finally {
    kv.close();
  }
});

Deno.test({
  name:
    "ingress on PostgreSQL: cut off from the database it answers 503, then accepts the retry once",
  ignore: !probe,
  async fn() {
    const database = (await startTestPostgres())!;
    const proxy = startTcpProxy(Number(new URL(database.url).port));
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    const kv = await openStore({ kvPath: undefined, databaseUrl: viaProxy.href });
    try {
      const body = await fixture("push/payload.json");
      const deliver = async () =>
        await handleWebhook(
          testDeps(kv, { now: Date.now }),
          await githubRequest(body, { event: "push", delivery: DELIVERY }),
        );
      proxy.cut();
      const refused = await deliver();
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get("retry-after"), "1");
      await refused.body?.cancel();
      proxy.restore();
      let retried = await deliver();
      for (let attempt = 0; retried.status === 503 && attempt < 100; attempt++) {
        await retried.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 100));
        retried = await deliver();
      }
      assert.deepEqual(await retried.json(), { ok: true });
      const again = await deliver();
      assert.deepEqual(await again.json(), { ok: true, duplicate: true });
      assert.equal((await keysUnder(kv, ["events"])).length, 1);
    } finally {
      await closeStore(kv);
      proxy.close();
      await database.stop();
    }
  },
  sanitizeResources: false, // the proxy's dropped sockets close asynchronously
  sanitizeOps: false,
});
