/** Reading several ids under one prefix: one range read, or `getMany` when the range is crowded. */
import assert from "node:assert/strict";
import { readIds } from "../../lib/store/id_range.ts";
import { openTestKv } from "../../testing/test_store.ts";

Deno.test("readIds: the entries of the ids asked for, in their order, absent ones empty", async () => {
  await using kv = await openTestKv();
  for (const id of ["01A", "01B", "01C", "01D"]) await kv.set(["marks", id], id.toLowerCase());
  await kv.set(["marks", "01B", "nested"], "not an id's own entry");
  const entries = await readIds<string>(kv, ["marks"], ["01D", "01A", "01X", "01B"]);
  assert.deepEqual(entries.map((entry) => entry.value), ["01d", "01a", null, "01b"]);
  assert.deepEqual(entries[2].key, ["marks", "01X"]);
  assert.deepEqual(await readIds(kv, ["marks"], []), []);
});

Deno.test("readIds: a range crowded with other ids is read key by key", async () => {
  await using kv = await openTestKv();
  const others = Array.from({ length: 200 }, (_, index) => `01M${String(index).padStart(4, "0")}`);
  for (const id of others) await kv.set(["marks", id], "other");
  await kv.set(["marks", "01A"], "first");
  await kv.set(["marks", "01Z"], "last");
  const entries = await readIds<string>(kv, ["marks"], ["01A", "01Z"]);
  assert.deepEqual(entries.map((entry) => entry.value), ["first", "last"]);
});
