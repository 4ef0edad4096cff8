import assert from "node:assert/strict";
import { join } from "node:path";
import { openStore } from "../lib/store/kv.ts";

Deno.test("openStore() creates the KV file's folder and keeps data across reopen", async () => {
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
});

Deno.test("openStore(':memory:') gives an empty throw-away store", async () => {
  const kv = await openStore(":memory:");
  assert.equal((await kv.get(["probe"])).value, null);
  kv.close();
});
