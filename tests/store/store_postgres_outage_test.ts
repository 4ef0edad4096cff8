/**
 * PostgreSQL outages as the app lives through them: however long the database stays away, every
 * operation is refused within a moment (the ingress answers 503 at once instead of holding the
 * sender), and once it is back the store answers again within a moment. Skipped, loudly, when no
 * PostgreSQL can be started.
 */
import assert from "node:assert/strict";
import { isStoreUnavailable } from "../../lib/store/backend/errors.ts";
import { closeStore, openStore } from "../../lib/store/kv.ts";
import { startTestPostgres } from "../../testing/postgres.ts";
import { startTcpProxy } from "../../testing/tcp_proxy.ts";

const probe = await startTestPostgres();
await probe?.stop();

/** The longest a refused operation or a reconnect may take. */
const PROMPT_MS = 1_500;

Deno.test({
  name:
    "postgres outage: every operation is refused within a moment, and the store answers soon after",
  ignore: !probe,
  async fn() {
    const database = (await startTestPostgres())!;
    const proxy = startTcpProxy(Number(new URL(database.url).port));
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    const kv = await openStore({ kvPath: undefined, databaseUrl: viaProxy.href });
    try {
      await kv.set(["before"], 1);
      proxy.cut();
      for (let attempt = 1; attempt <= 25; attempt++) {
        const started = Date.now();
        await assert.rejects(() => kv.get(["before"]), isStoreUnavailable);
        const took = Date.now() - started;
        assert.ok(took < PROMPT_MS, `refusal ${attempt} took ${took} ms`);
      }
      proxy.restore();
      const restored = Date.now();
      for (;;) {
        try {
          assert.equal((await kv.get(["before"])).value, 1);
          break;
        } catch (error) {
          assert.ok(isStoreUnavailable(error), String(error));
          assert.ok(Date.now() - restored < PROMPT_MS, "the store answers again within a moment");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    } finally {
      await closeStore(kv);
      proxy.close();
      await database.stop();
    }
  },
  sanitizeResources: false, // the proxy's dropped sockets close asynchronously
  sanitizeOps: false,
});
