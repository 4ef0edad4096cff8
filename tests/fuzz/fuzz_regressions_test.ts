/** Inputs fuzzing once found answered 5xx, kept as plain tests. */
import assert from "node:assert/strict";
import { snapshotChanges, snapshotStore } from "../../testing/store_snapshot.ts";
import { ALPHA, startAdminApp } from "../_admin_helpers.ts";

Deno.test("a versioned write with an If-Match that is no ETag of the API answers 400", async () => {
  await using admin = await startAdminApp();
  await admin.cookie("owner");
  const before = await snapshotStore(admin.kv);
  for (const ifMatch of ['"bogus"', "x", 'W/"0123"', '"0123456789ABCDEF0123"', '"\u00e9"']) {
    const res = await admin.call("owner", "PUT", "/admin/api/groups/alpha/fragments", {
      body: { fragments: [] },
      headers: { "if-match": ifMatch },
    });
    assert.equal(res.status, 400, ifMatch);
    assert.match(res.body.error, /If-Match/);
  }
  assert.deepEqual(snapshotChanges(before, await snapshotStore(admin.kv)), []);
  const read = await admin.call("owner", "GET", "/admin/api/groups/alpha/fragments", {
    headers: { "if-match": '"bogus"' },
  });
  assert.equal(read.status, 200, "a read ignores If-Match");
  const fresh = await admin.call("owner", "PUT", "/admin/api/groups/alpha/fragments", {
    body: { fragments: [] },
    headers: { "if-match": '"empty"' },
  });
  assert.equal(fresh.status, 200, '"empty" still means nothing stored yet');
});

Deno.test("a group write with an If-Match that is no group ETag answers 400", async () => {
  await using admin = await startAdminApp();
  const read = await admin.call("owner", "GET", "/admin/api/groups/alpha");
  const tag = read.headers.get("etag")!;
  const bogus = await admin.call("owner", "PUT", "/admin/api/groups/alpha", {
    body: { ...ALPHA, name: "Renamed" },
    headers: { "if-match": '"00000000000000000000"' },
  });
  assert.equal(bogus.status, 400, "a versionstamp is not a group's ETag");
  const ok = await admin.call("owner", "PUT", "/admin/api/groups/alpha", {
    body: { ...ALPHA, name: "Renamed" },
    headers: { "if-match": tag },
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
});
