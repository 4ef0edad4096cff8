/** The route option `digest`: validated, stored and returned as given by the admin API. */
import assert from "node:assert/strict";
import { allowTarget, route, startAdminApp } from "../_admin_helpers.ts";

Deno.test("a route's digest is stored and returned as given", async () => {
  await using admin = await startAdminApp();
  await allowTarget(admin.kv, "alpha");
  const digest = { windowSeconds: 300, threshold: 5 };
  const put = await admin.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes: [route("alpha", "r1", { digest }), route("alpha", "r2")] },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const got = await admin.call("owner", "GET", "/admin/api/groups/alpha/routes");
  assert.equal(got.status, 200);
  assert.deepEqual(got.body.routes[0].digest, digest);
  assert.equal("digest" in got.body.routes[1], false);
});

Deno.test("a bad digest is refused with 400 and changes nothing", async () => {
  await using admin = await startAdminApp();
  await allowTarget(admin.kv, "alpha");
  const bad: unknown[] = [
    { windowSeconds: 0, threshold: 5 },
    { windowSeconds: 60, threshold: -1 },
    { windowSeconds: 1.5, threshold: 2 },
    { windowSeconds: 86_401, threshold: 2 },
    { windowSeconds: 60, threshold: 1_001 },
    { windowSeconds: "60", threshold: 2 },
    { windowSeconds: 60 },
    { windowSeconds: 60, threshold: 2, extra: true },
    null,
    [],
    "daily",
  ];
  for (const digest of bad) {
    const put = await admin.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
      body: { routes: [{ ...route("alpha", "r1"), digest }] },
    });
    assert.equal(put.status, 400, JSON.stringify(digest));
    assert.equal(typeof put.body.error, "string");
  }
  const got = await admin.call("owner", "GET", "/admin/api/groups/alpha/routes");
  assert.deepEqual(got.body.routes, []);
});

Deno.test("the OpenAPI document describes the digest option", async () => {
  await using admin = await startAdminApp();
  const doc = await admin.call("none", "GET", "/openapi.json");
  const digest = doc.body.components.schemas.RouteDigest;
  assert.deepEqual(Object.keys(digest.properties).sort(), ["threshold", "windowSeconds"]);
  assert.equal(digest.properties.windowSeconds.maximum, 86_400);
});
