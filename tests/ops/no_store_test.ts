/** Answers of the admin API, the action API and the auth endpoints are never cached. */
import assert from "node:assert/strict";
import { startAdminApp } from "../_admin_helpers.ts";

const ORIGIN = "http://localhost:8000";

Deno.test("no-store: every /admin/api, /api and /auth answer, errors included", async () => {
  await using app = await startAdminApp();
  const answers = [
    await app.call("viewer", "GET", "/admin/api/me"),
    await app.call("viewer", "GET", "/admin/api/groups"),
    await app.call("viewer", "GET", "/admin/api/groups/beta/routes"),
    await app.call("owner", "PUT", "/admin/api/groups/alpha/fragments", {
      body: { fragments: [] },
    }),
    await app.call("none", "GET", "/admin/api/me"),
    await app.call("viewer", "GET", "/admin/api/nothing-here"),
    await app.call("superAdmin", "GET", `/admin/api/logs/${"x".repeat(3000)}`),
    await app.call("none", "POST", "/api/comment", { body: {} }),
    await app.call("owner", "DELETE", "/auth/token/1", { headers: { origin: ORIGIN } }),
    await app.call("none", "GET", "/auth/github"),
  ];
  assert.deepEqual(answers.map((a) => a.status), [
    200,
    200,
    403,
    200,
    401,
    404,
    400,
    503,
    200,
    503,
  ]);
  for (const answer of answers) assert.equal(answer.headers.get("cache-control"), "no-store");
});

Deno.test("no-store: public answers keep their own caching", async () => {
  await using app = await startAdminApp();
  const health = await app.call("none", "GET", "/health");
  assert.equal(health.status, 200);
  assert.equal(health.headers.get("cache-control"), null);
});
