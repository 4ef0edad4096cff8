import type { Kv, KvKey } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { GET_MANY_LIMIT, getManyInBatches, readIndexed } from "../../lib/store/batch.ts";
import { openTestKv } from "../../testing/test_store.ts";

/** `kv` with every `getMany` call's key count recorded in `sizes`. */
function countingGetMany(kv: Kv): { kv: Kv; sizes: number[] } {
  const sizes: number[] = [];
  const counted = new Proxy(kv, {
    get(target, name) {
      if (name === "getMany") {
        return (keys: KvKey[]) => {
          sizes.push(keys.length);
          return target.getMany(keys);
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: counted, sizes };
}

const recordKey = (id: string) => ["record", id];
const id = (n: number) => String(n).padStart(3, "0");

async function withRecords(count: number, run: (kv: Kv) => Promise<void>) {
  await using kv = await openTestKv();
  for (let n = 0; n < count; n++) {
    await kv.set(recordKey(id(n)), { n });
    await kv.set(["index", id(n)], id(n));
  }
  await run(kv);
}

Deno.test("getManyInBatches reads 25 keys in order, never more than 10 per call", async () => {
  await withRecords(25, async (store) => {
    const { kv, sizes } = countingGetMany(store);
    const keys = Array.from({ length: 25 }, (_, n) => recordKey(id(24 - n)));
    const entries = await getManyInBatches<{ n: number }>(kv, keys);
    assert.deepEqual(entries.map((entry) => entry.value?.n), keys.map((_, n) => 24 - n));
    assert.deepEqual(sizes, [10, 10, 5]);
    assert.equal(GET_MANY_LIMIT, 10);
  });
});

Deno.test("getManyInBatches keeps a place for a missing key", async () => {
  await withRecords(2, async (kv) => {
    const entries = await getManyInBatches(kv, [recordKey("000"), ["nothing"], recordKey("001")]);
    assert.deepEqual(entries.map((entry) => entry.versionstamp === null), [false, true, false]);
  });
});

Deno.test("readIndexed follows the index in order and skips ids whose record is gone", async () => {
  await withRecords(23, async (store) => {
    await store.delete(recordKey(id(5)));
    const { kv, sizes } = countingGetMany(store);
    const entries = await Array.fromAsync(
      readIndexed<{ n: number }>(kv, { prefix: ["index"] }, recordKey, { reverse: true }),
    );
    const expected = Array.from({ length: 23 }, (_, n) => 22 - n).filter((n) => n !== 5);
    assert.deepEqual(entries.map((entry) => entry.value.n), expected);
    assert.ok(entries.every((entry) => entry.versionstamp !== null));
    assert.deepEqual(sizes, [10, 10, 3]);
  });
});

Deno.test("readIndexed stops reading when the caller stops", async () => {
  await withRecords(40, async (store) => {
    const { kv, sizes } = countingGetMany(store);
    for await (const entry of readIndexed<{ n: number }>(kv, { prefix: ["index"] }, recordKey)) {
      if (entry.value.n === 12) break;
    }
    assert.deepEqual(sizes, [10, 10]);
  });
});
