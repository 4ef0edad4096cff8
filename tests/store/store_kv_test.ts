import assert from "node:assert/strict";
import { join } from "node:path";
import { openStore } from "../../lib/store/kv.ts";
import { onlyOn } from "../../testing/test_store.ts";

/** These open Deno KV by path whatever the run's backend: running them twice adds nothing. */
const DENO_KV_ONLY = onlyOn("denokv", "tests/store/store_kv_test.ts opens Deno KV files by path");

Deno.test({
  name: "openStore() creates the KV file's folder and keeps data across reopen",
  ...DENO_KV_ONLY,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const path = join(dir, "a", "b", "store.kv");
    try {
      const kv = await openStore(path);
      await kv.set(["probe"], 1);
      kv.close();
      const again = await openStore(path);
      assert.equal((await again.get(["probe"])).value, 1);
      again.close();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "openStore(':memory:') gives an empty throw-away store",
  ...DENO_KV_ONLY,
  fn: async () => {
    const kv = await openStore(":memory:");
    assert.equal((await kv.get(["probe"])).value, null);
    kv.close();
  },
});
