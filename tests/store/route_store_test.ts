import type { Kv, KvKey } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { createRouteCache } from "../../lib/delivery/route_cache.ts";
import {
  routeSetEntryKey,
  routeSetPendingKey,
  routeSetPrefix,
  routeSetsPendingPrefix,
  routesPointerKey,
} from "../../lib/store/keys.ts";
import {
  getGroupRoutes,
  getRoutes,
  ORPHAN_SET_AGE_MS,
  replaceGroupRoutes,
  replaceRoutes,
  sweepOrphanRouteSets,
} from "../../lib/store/config/routes.ts";
import type { Route } from "../../lib/types.ts";
import { waitFor } from "../_helpers.ts";
import { readCountingKv } from "../_kv_commits.ts";
import { openTestKv } from "../../testing/test_store.ts";

function route(id: string, groupId = "g1", event = "push"): Route {
  return {
    id,
    name: `Route ${id}`,
    enabled: true,
    groupId,
    filters: [{ type: "event", value: event }],
    targets: [{ platform: "discord", channelId: "100" }],
  };
}

async function withKv(test: (kv: Kv) => Promise<void>) {
  await using kv = await openTestKv();
  try {
    await test(kv);
  } finally {
    kv.close();
  }
}

async function countEntries(kv: Kv, prefix: KvKey): Promise<number> {
  let count = 0;
  for await (const _ of kv.list({ prefix })) count++;
  return count;
}

Deno.test("an empty store has no routes and a null versionstamp", () =>
  withKv(async (kv) => {
    assert.deepEqual(await getRoutes(kv), { routes: [], versionstamp: null });
  }));

Deno.test("replaceRoutes stores the routes in order and removes the old set", () =>
  withKv(async (kv) => {
    const first = await replaceRoutes(kv, [route("b"), route("a"), route("c")]);
    assert.equal(first.ok, true);
    const stored = await getRoutes(kv);
    assert.deepEqual(stored.routes.map((entry) => entry.id), ["b", "a", "c"]);
    assert.equal(first.ok && first.versionstamp, stored.versionstamp);

    const many = Array.from({ length: 150 }, (_, index) => route(`r${index}`));
    assert.equal((await replaceRoutes(kv, many)).ok, true);
    assert.deepEqual((await getRoutes(kv)).routes.map((entry) => entry.id), many.map((r) => r.id));
    assert.equal(await countEntries(kv, ["route_sets"]), 150);
    assert.equal(await countEntries(kv, routeSetsPendingPrefix()), 0);
  }));

Deno.test("replaceRoutes with a stale versionstamp is a conflict and changes nothing", () =>
  withKv(async (kv) => {
    await replaceRoutes(kv, [route("a")]);
    const read = await getRoutes(kv);
    assert.equal((await replaceRoutes(kv, [route("b")], read.versionstamp)).ok, true);
    const stale = await replaceRoutes(kv, [route("c")], read.versionstamp);
    assert.deepEqual(stale, { ok: false, reason: "conflict" });
    assert.deepEqual((await getRoutes(kv)).routes.map((entry) => entry.id), ["b"]);
    assert.equal(await countEntries(kv, ["route_sets"]), 1);
    assert.deepEqual(await replaceRoutes(kv, [route("d")], null), {
      ok: false,
      reason: "conflict",
    });
  }));

Deno.test("replaceRoutes refuses more than 200 routes and oversized routes", () =>
  withKv(async (kv) => {
    const tooMany = Array.from({ length: 201 }, (_, index) => route(`r${index}`));
    assert.deepEqual(await replaceRoutes(kv, tooMany), {
      ok: false,
      reason: "too_many",
      limit: 200,
    });
    const huge = { ...route("huge"), name: "x".repeat(70_000) };
    assert.deepEqual(await replaceRoutes(kv, [route("a"), huge]), {
      ok: false,
      reason: "too_large",
      routeId: "huge",
    });
    assert.equal((await getRoutes(kv)).versionstamp, null);
  }));

Deno.test("readers see one whole set while replacements run", () =>
  withKv(async (kv) => {
    const setOf = (tag: string) => Array.from({ length: 120 }, (_, i) => route(`${tag}${i}`));
    await replaceRoutes(kv, setOf("a"));
    const writes = (async () => {
      for (const tag of ["b", "c", "d", "e"]) await replaceRoutes(kv, setOf(tag));
    })();
    const reads: string[] = [];
    let done = false;
    writes.then(() => done = true);
    while (!done) {
      const { routes } = await getRoutes(kv);
      assert.equal(routes.length, 120);
      const tags = new Set(routes.map((entry) => entry.id[0]));
      assert.equal(tags.size, 1, "a read mixed two sets");
      reads.push([...tags][0]);
    }
    await writes;
    assert.ok(reads.length > 0);
    assert.deepEqual((await getRoutes(kv)).routes[0].id, "e0");
  }));

Deno.test("replaceGroupRoutes replaces one group in place and checks the versionstamp", () =>
  withKv(async (kv) => {
    await replaceRoutes(kv, [
      route("a1", "ga"),
      route("b1", "gb"),
      route("b2", "gb"),
      route("c1", "gc"),
    ]);
    const read = await getGroupRoutes(kv, "gb");
    assert.deepEqual(read.routes.map((entry) => entry.id), ["b1", "b2"]);
    const result = await replaceGroupRoutes(kv, "gb", [route("b3", "gb")], read.versionstamp);
    assert.equal(result.ok, true);
    assert.deepEqual((await getRoutes(kv)).routes.map((entry) => entry.id), ["a1", "b3", "c1"]);
    assert.deepEqual(
      await replaceGroupRoutes(kv, "gb", [route("b4", "gb")], read.versionstamp),
      { ok: false, reason: "conflict" },
    );
    await replaceGroupRoutes(kv, "gd", [route("d1", "gd")]);
    await replaceGroupRoutes(kv, "ga", []);
    assert.deepEqual((await getRoutes(kv)).routes.map((entry) => entry.id), ["b3", "c1", "d1"]);
    await assert.rejects(() => replaceGroupRoutes(kv, "ga", [route("x", "gb")]), TypeError);
  }));

Deno.test("concurrent group replacements without a versionstamp both land", () =>
  withKv(async (kv) => {
    await Promise.all([
      replaceGroupRoutes(kv, "ga", [route("a1", "ga")]),
      replaceGroupRoutes(kv, "gb", [route("b1", "gb")]),
      replaceGroupRoutes(kv, "gc", [route("c1", "gc")]),
    ]);
    const ids = (await getRoutes(kv)).routes.map((entry) => entry.id).sort();
    assert.deepEqual(ids, ["a1", "b1", "c1"]);
  }));

Deno.test("sweepOrphanRouteSets deletes only old pending sets", () =>
  withKv(async (kv) => {
    const oldSet = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    await kv.set(routeSetPendingKey(oldSet), 0);
    await kv.set(routeSetEntryKey(oldSet, 0), route("ghost"));
    await replaceRoutes(kv, [route("a")]);
    assert.equal(await countEntries(kv, routeSetPrefix(oldSet)), 0);
    const recent = "01" + "Z".repeat(24);
    await kv.set(routeSetPendingKey(recent), 0);
    assert.equal(await sweepOrphanRouteSets(kv, Date.now() + ORPHAN_SET_AGE_MS), 0);
  }));

Deno.test("the route cache compiles once and sees a saved change by its watch, not its poll", () =>
  withKv(async (kv) => {
    await replaceRoutes(kv, [route("a")]);
    const cache = createRouteCache(kv, { pollIntervalMs: 60_000 });
    try {
      const first = await cache.current();
      assert.deepEqual(first.routes.map((entry) => entry.route.id), ["a"]);
      assert.equal(await cache.current(), first, "the cache recompiled without a change");
      const event = { kind: "push", payload: {} };
      assert.equal(first.routes[0].matches(event), true);

      await replaceRoutes(kv, [route("b", "g1", "issues")]);
      let latest = first;
      await waitFor("the saved change (the next poll is a minute away)", async () => {
        latest = await cache.current();
        return latest.routes[0].route.id === "b";
      });
      assert.equal(latest.routes[0].matches(event), false);
    } finally {
      cache.close();
    }
  }));

Deno.test("the route cache follows the pointer however it was written", () =>
  withKv(async (kv) => {
    const cache = createRouteCache(kv, { pollIntervalMs: 50 });
    try {
      assert.deepEqual((await cache.current()).routes, []);
      await kv.set(routesPointerKey(), {
        setId: "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        count: 0,
        updatedAt: 0,
      });
      await waitFor(
        "the cache to follow the pointer",
        async () => (await cache.current()).versionstamp !== null,
      );
    } finally {
      cache.close();
    }
  }));

Deno.test("a set read again while the pointer names it is not listed again, and its routes are frozen", () =>
  withKv(async (kv) => {
    assert.ok((await replaceRoutes(kv, [route("a"), route("b")])).ok);
    const counting = readCountingKv(kv, ["route_sets"]);
    const first = await getRoutes(counting.kv);
    const second = await getGroupRoutes(counting.kv, "g1");
    assert.deepEqual(second.routes.map((entry) => entry.id), ["a", "b"]);
    assert.equal(second.versionstamp, first.versionstamp);
    assert.equal(counting.reads("list"), 1);
    assert.ok(Object.isFrozen(second.routes[0]) && Object.isFrozen(second.routes[0].targets[0]));
    assert.throws(() => {
      (second.routes[0] as { name: string }).name = "changed";
    }, TypeError);
    second.routes.pop(); // the list itself is the caller's
    assert.equal((await getRoutes(counting.kv)).routes.length, 2);

    assert.ok((await replaceRoutes(kv, [route("c")])).ok);
    assert.deepEqual((await getRoutes(counting.kv)).routes.map((entry) => entry.id), ["c"]);
    assert.equal(counting.reads("list"), 2);
  }));
