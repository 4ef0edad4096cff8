/**
 * The console's one admin API client (`components/api/admin_api.ts`) against the app itself, as
 * the browser calls it: endpoints named by method and path reach their routes with the path
 * parameters filled in and encoded, versioned writes send `If-Match`, and every failure is one
 * `ApiError` with the API's message and status (0 when the server cannot be reached).
 */
import assert from "node:assert/strict";
import { adminApi, ApiError, pathOf, tryAdminApi } from "../../components/api/admin_api.ts";
import { startTestApp, type TestApp } from "../_helpers.ts";

/** Runs `body` with the global `fetch` answering as the app does for a same-origin page. */
async function asBrowser(app: TestApp, body: () => Promise<void>): Promise<void> {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("origin", "http://localhost");
    return app.fetch(String(input), { ...init, headers });
  };
  try {
    await body();
  } finally {
    globalThis.fetch = original;
  }
}

const OWNER = { userId: "583231", login: "octocat", role: "owner" as const };
const GROUP = { id: "web", name: "Web team", members: [OWNER] };

Deno.test("admin client: fills and encodes path parameters, adds the query", () => {
  assert.equal(
    pathOf("GET /admin/api/groups/{id}/events/{eventId}", { id: "a b", eventId: "x/y" }, {
      limit: 10,
    }),
    "/admin/api/groups/a%20b/events/x%2Fy?limit=10",
  );
  assert.throws(() => pathOf("GET /admin/api/groups/{id}", {}), /no value for \{id\}/);
});

Deno.test("admin client: a versioned write with a stale ETag fails with 409, a fresh one saves", async () => {
  await using app = await startTestApp({ DEBUG_MODE: "true" });
  await asBrowser(app, async () => {
    const created = await adminApi("POST /admin/api/groups", { body: GROUP });
    assert.deepEqual(created.data, { ok: true, id: "web" });
    const read = await adminApi("GET /admin/api/groups/{id}/routes", { params: { id: "web" } });
    assert.deepEqual(read.data.routes, []);
    assert.ok(read.etag);
    const route = {
      id: "all",
      name: "All",
      enabled: true,
      groupId: "web",
      filters: [{ type: "event" as const, value: "push" }],
      targets: [{ platform: "discord" as const, channelId: "111111111111111111" }],
    };
    const saved = await adminApi("PUT /admin/api/groups/{id}/routes", {
      params: { id: "web" },
      body: { routes: [route] },
      etag: read.etag,
    });
    assert.ok(saved.etag && saved.etag !== read.etag);
    const stale = await tryAdminApi("PUT /admin/api/groups/{id}/routes", {
      params: { id: "web" },
      body: { routes: [] },
      etag: read.etag,
    });
    assert.equal(stale.ok, false);
    assert.ok(!stale.ok && stale.error instanceof ApiError);
    assert.equal(!stale.ok && stale.error.status, 409);
    const now = await adminApi("GET /admin/api/groups/{id}/routes", { params: { id: "web" } });
    assert.deepEqual(now.data.routes.map((stored) => stored.id), ["all"]);
  });
});

Deno.test("admin client: the API's refusal is an ApiError with its message and status", async () => {
  await using app = await startTestApp({ DEBUG_MODE: "true" });
  await asBrowser(app, async () => {
    const missing = await adminApi("GET /admin/api/groups/{id}", { params: { id: "nope" } })
      .then(() => null, (error) => error);
    assert.ok(missing instanceof ApiError);
    assert.equal(missing.status, 404);
    assert.match(missing.message, /nope/);
    const invalid = await tryAdminApi("POST /admin/api/groups", {
      body: { ...GROUP, id: "Not An Id" },
    });
    assert.ok(!invalid.ok);
    assert.equal(invalid.error.status, 400);
    assert.match(invalid.error.message, /^id: /);
  });
});

Deno.test("admin client: an unreachable server and a non-JSON error are ApiErrors too", async () => {
  const original = globalThis.fetch;
  try {
    globalThis.fetch = () => Promise.reject(new TypeError("network down"));
    const offline = await tryAdminApi("GET /admin/api/me");
    assert.ok(!offline.ok);
    assert.equal(offline.error.status, 0);
    assert.match(offline.error.message, /could not be reached/);
    globalThis.fetch = () =>
      Promise.resolve(new Response("<html>bad gateway</html>", { status: 502 }));
    const proxy = await tryAdminApi("GET /admin/api/me");
    assert.ok(!proxy.ok);
    assert.equal(proxy.error.status, 502);
    assert.equal(proxy.error.message, "HTTP 502");
  } finally {
    globalThis.fetch = original;
  }
});
