/**
 * The console's routes pages on the server: who sees which group, what the pages say without
 * JavaScript, the errors for unknown or foreign groups and routes, and the versions the
 * islands save with (`ETag` on the page data and on each save).
 */
import assert from "node:assert/strict";
import { replaceFragments } from "../../lib/store/config/fragments.ts";
import { replaceGroupRoutes } from "../../lib/store/config/routes.ts";
import { allowTarget, route, startAdminApp } from "../_admin_helpers.ts";

const PAGE = { headers: { accept: "text/html" } };

async function withRoutes() {
  const admin = await startAdminApp();
  await replaceGroupRoutes(admin.kv, "alpha", [
    route("alpha", "bugs", {
      name: "Bug PRs",
      filters: [],
      ast: {
        all: [
          { type: "event", value: "pull_request.opened" },
          { type: "field", path: "pull_request.labels[*].name", value: "bug" },
        ],
      },
    }),
    route("alpha", "rest", { name: "Everything else", fallback: true, filters: [] }),
  ]);
  await replaceGroupRoutes(admin.kv, "beta", [route("beta", "secret", { name: "Beta only" })]);
  return admin;
}

Deno.test("routes pages: the index lists only the groups the person can read", async () => {
  await using admin = await withRoutes();
  const viewer = await admin.call("viewer", "GET", "/admin/routes", PAGE);
  assert.equal(viewer.status, 302, "one group: no choice to make");
  assert.equal(viewer.headers.get("location"), "/admin/routes/alpha");
  const superAdmin = await admin.call("superAdmin", "GET", "/admin/routes", PAGE);
  assert.equal(superAdmin.status, 200);
  assert.match(superAdmin.body, /Choose a group/);
  assert.match(superAdmin.body, /href="\/admin\/routes\/alpha"/);
  assert.match(superAdmin.body, /2 routes/);
  assert.match(superAdmin.body, /\/admin\/routes\/beta/);
  assert.doesNotMatch(superAdmin.body, /read only/);
});

Deno.test("routes pages: a group's routes read in order without JavaScript", async () => {
  await using admin = await withRoutes();
  const res = await admin.call("admin", "GET", "/admin/routes/alpha", PAGE);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const html: string = res.body;
  assert.ok(html.indexOf("Bug PRs") < html.indexOf("Everything else"));
  assert.match(html, /pull_request\.opened and pull_request\.labels\[\*\]\.name = &quot;bug&quot;/);
  assert.match(html, /every event no other route took/);
  assert.match(html, /Discord #123456789/);
  assert.match(html, />Fallback</);
  assert.match(html, /href="\/admin\/routes\/alpha\/new"/);
  assert.match(html, /aria-label="Move down: Bug PRs"/);
});

Deno.test("routes pages: a viewer gets the list and the editor without editing controls", async () => {
  await using admin = await withRoutes();
  const list = await admin.call("viewer", "GET", "/admin/routes/alpha", PAGE);
  assert.equal(list.status, 200);
  assert.doesNotMatch(list.body, /New route|Move down|role="switch"/);
  const editor = await admin.call("viewer", "GET", "/admin/routes/alpha/edit/bugs", PAGE);
  assert.equal(editor.status, 200);
  assert.match(editor.body, /Read only: viewers cannot change routes/);
  assert.doesNotMatch(editor.body, /Save route/);
});

Deno.test("routes pages: the editor renders the route and its tree on the server", async () => {
  await using admin = await withRoutes();
  await replaceFragments(
    admin.kv,
    "alpha",
    [{
      id: "bug-label",
      groupId: "alpha",
      name: "Bug label",
      node: { type: "field", path: "pull_request.labels[*].name", value: "bug" },
    }],
    undefined,
    [],
  );
  const res = await admin.call("admin", "GET", "/admin/routes/alpha/edit/bugs", PAGE);
  assert.equal(res.status, 200);
  const html: string = res.body;
  assert.match(html, /id="route-name"[^>]*value="Bug PRs"|value="Bug PRs"[^>]*id="route-name"/);
  assert.match(html, /value="pull_request.labels\[\*\].name"/);
  assert.match(html, /Bug label/, "the group's fragments are listed");
  assert.match(html, /data-island="console_routes_RouteEditor"/);
  const created = await admin.call("admin", "GET", "/admin/routes/alpha/new", PAGE);
  assert.equal(created.status, 200);
  assert.match(created.body, /Create route/);
});

Deno.test("routes pages: unknown, foreign and malformed groups and routes are refused", async () => {
  await using admin = await withRoutes();
  const status = async (caller: "admin" | "owner", path: string) =>
    (await admin.call(caller, "GET", path, PAGE)).status;
  assert.equal(await status("admin", "/admin/routes/beta"), 403);
  assert.equal(await status("admin", "/admin/routes/beta/edit/secret"), 403);
  assert.equal(await status("admin", "/admin/routes/beta/new"), 403);
  assert.equal(await status("admin", "/admin/routes/nope"), 404);
  assert.equal(await status("admin", "/admin/routes/alpha/edit/nope"), 404);
  assert.equal(await status("admin", "/admin/routes/Not%20An%20Id"), 400);
  assert.equal(await status("admin", "/admin/routes/alpha/edit/Bad%21"), 400);
  const beta = await admin.call("admin", "GET", "/admin/routes/beta", PAGE);
  assert.doesNotMatch(beta.body, /Beta only/);
  assert.equal((await admin.call("none", "GET", "/admin/routes/alpha", PAGE)).status, 302);
});

Deno.test("routes pages: a save answers the new version, which the next save can send", async () => {
  await using admin = await withRoutes();
  await allowTarget(admin.kv, "alpha");
  const read = await admin.call("admin", "GET", "/admin/api/groups/alpha/routes");
  const etag = read.headers.get("etag")!;
  const routes = read.body.routes;
  routes[0].enabled = false;
  const first = await admin.call("admin", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes },
    headers: { "if-match": etag },
  });
  assert.equal(first.status, 200);
  assert.deepEqual(first.body, { ok: true, count: 2 });
  const next = first.headers.get("etag");
  assert.ok(next && next !== etag);
  assert.equal(
    (await admin.call("admin", "GET", "/admin/api/groups/alpha/routes")).headers
      .get("etag"),
    next,
  );
  routes[0].enabled = true;
  const second = await admin.call("admin", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes },
    headers: { "if-match": next },
  });
  assert.equal(second.status, 200);
  const stale = await admin.call("admin", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes },
    headers: { "if-match": next },
  });
  assert.equal(stale.status, 409);

  const fragments = await admin.call("admin", "GET", "/admin/api/groups/alpha/fragments");
  const saved = await admin.call("admin", "PUT", "/admin/api/groups/alpha/fragments", {
    body: { fragments: [] },
    headers: { "if-match": fragments.headers.get("etag")! },
  });
  assert.equal(saved.status, 200);
  const again = await admin.call("admin", "PUT", "/admin/api/groups/alpha/fragments", {
    body: { fragments: [] },
    headers: { "if-match": saved.headers.get("etag")! },
  });
  assert.equal(again.status, 200);
});

Deno.test("routes pages: the bundled sample payloads are served", async () => {
  await using admin = await withRoutes();
  const res = await admin.t.fetch("/samples/github/pull_request.opened.json");
  assert.equal(res.status, 200);
  assert.equal((await res.json()).action, "opened");
  assert.equal((await admin.t.fetch("/samples/github/LICENSE")).status, 200);
});
