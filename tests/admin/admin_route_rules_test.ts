/**
 * Route rules the contract fixes: a digest's window and threshold are positive integers (a
 * threshold of 0 stored before is read as 1), and only a fallback route may have a filter
 * without a condition (no leaf in its tree).
 */
import assert from "node:assert/strict";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import type { FilterNode } from "../../lib/types.ts";
import { allowTarget, route, startAdminApp } from "../_admin_helpers.ts";

const ALPHA_ROUTES = "/admin/api/groups/alpha/routes";

Deno.test("route rules: a digest threshold or window of 0 is refused with 400; 1 is stored as given", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  const zeroThreshold = await app.call("owner", "PUT", ALPHA_ROUTES, {
    body: { routes: [route("alpha", "r1", { digest: { windowSeconds: 60, threshold: 0 } })] },
  });
  assert.deepEqual({ status: zeroThreshold.status, body: zeroThreshold.body }, {
    status: 400,
    body: { error: "routes[0].digest.threshold: at least 1" },
  });
  const zeroWindow = await app.call("owner", "PUT", ALPHA_ROUTES, {
    body: { routes: [route("alpha", "r1", { digest: { windowSeconds: 0, threshold: 1 } })] },
  });
  assert.deepEqual(zeroWindow.body, { error: "routes[0].digest.windowSeconds: at least 1 second" });
  assert.deepEqual((await getRoutes(app.kv)).routes, []);

  const one = await app.call("owner", "PUT", ALPHA_ROUTES, {
    body: { routes: [route("alpha", "r1", { digest: { windowSeconds: 60, threshold: 1 } })] },
  });
  assert.deepEqual(one.body, { ok: true, count: 1 });
  const read = await app.call("viewer", "GET", ALPHA_ROUTES);
  assert.deepEqual(read.body.routes[0].digest, { windowSeconds: 60, threshold: 1 });
});

Deno.test("route rules: a route stored with digest threshold 0 is read as threshold 1 and saves again unchanged", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  await replaceRoutes(app.kv, [
    route("alpha", "old", { digest: { windowSeconds: 300, threshold: 0 } }),
  ]);
  const read = await app.call("viewer", "GET", ALPHA_ROUTES);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.routes[0].digest, { windowSeconds: 300, threshold: 1 });
  assert.deepEqual((await getRoutes(app.kv)).routes[0].digest, {
    windowSeconds: 300,
    threshold: 1,
  });
  const saved = await app.call("owner", "PUT", ALPHA_ROUTES, {
    body: { routes: [...read.body.routes, route("alpha", "new")] },
    headers: { "if-match": read.headers.get("etag")! },
  });
  assert.deepEqual(saved.body, { ok: true, count: 2 });
});

const EMPTY_TREES: { name: string; ast: FilterNode }[] = [
  { name: "an empty all", ast: { all: [] } },
  { name: "an empty any", ast: { any: [] } },
  { name: "a tree of empty branches", ast: { any: [{ all: [] }, { not: { any: [] } }] } },
];

for (const { name, ast } of EMPTY_TREES) {
  Deno.test(`route rules: a non-fallback route whose ast is ${name} is refused with 400 naming it`, async () => {
    await using app = await startAdminApp();
    await allowTarget(app.kv, "alpha");
    const answer = await app.call("owner", "PUT", ALPHA_ROUTES, {
      body: { routes: [route("alpha", "ok"), route("alpha", "everything", { filters: [], ast })] },
    });
    assert.deepEqual({ status: answer.status, body: answer.body }, {
      status: 400,
      body: {
        error: 'routes[1].ast: route "everything" has no condition; only a fallback route may ' +
          "have none",
      },
    });
    const viaAll = await app.call("superAdmin", "PUT", "/admin/api/routes", {
      body: {
        routes: [route("alpha", "everything", { filters: [route("a", "b").filters[0]], ast })],
      },
    });
    assert.equal(viaAll.status, 400);
    assert.match(viaAll.body.error, /^routes\[0\]\.ast: route "everything" has no condition/);
    assert.deepEqual((await getRoutes(app.kv)).routes, []);
  });
}

Deno.test("route rules: a fallback route may still have empty filters or an empty tree", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  const answer = await app.call("owner", "PUT", ALPHA_ROUTES, {
    body: {
      routes: [
        route("alpha", "rest", { fallback: true, filters: [] }),
        route("alpha", "rest-tree", { fallback: true, filters: [], ast: { all: [] } }),
        route("alpha", "narrow", { filters: [], ast: { all: [{ type: "event", value: "push" }] } }),
      ],
    },
  });
  assert.deepEqual(answer.body, { ok: true, count: 3 });
});
