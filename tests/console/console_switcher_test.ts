/**
 * The header's group switcher on per-group pages: `?group=` on the routes, groups and events
 * tabs opens that group's page, per-group pages show their group as selected, and a group the
 * person cannot read is ignored.
 */
import assert from "node:assert/strict";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import { allowTarget, route, startAdminApp } from "../_admin_helpers.ts";

const SELECTED = (id: string) => new RegExp(`<option value="${id}" selected>`);

Deno.test("the group switcher opens the chosen group's page on each per-group tab", async () => {
  await using app = await startAdminApp();
  for (const tab of ["routes", "groups", "events"]) {
    const answer = await app.call("superAdmin", "GET", `/admin/${tab}?group=beta`);
    assert.equal(answer.status, 302, tab);
    assert.equal(answer.headers.get("location"), `/admin/${tab}/beta`);
  }
  const ignored = await app.call("viewer", "GET", "/admin/routes?group=beta");
  assert.equal(
    ignored.headers.get("location"),
    "/admin/routes/alpha",
    "a group the viewer cannot read is not chosen: their only group is",
  );
  const all = await app.call("superAdmin", "GET", "/admin/routes?group=");
  assert.equal(all.status, 200, "All groups stays on the tab's index");
});

Deno.test("per-group pages select their group in the switcher, which leads back to the tab", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  assert.ok((await replaceRoutes(app.kv, [route("alpha", "r1")])).ok);
  for (
    const [path, tab] of [
      ["/admin/routes/alpha", "/admin/routes"],
      ["/admin/routes/alpha/new", "/admin/routes"],
      ["/admin/routes/alpha/edit/r1", "/admin/routes"],
      ["/admin/groups/alpha", "/admin/groups"],
      ["/admin/events/alpha", "/admin/events"],
    ]
  ) {
    const page = await app.call("superAdmin", "GET", path);
    assert.equal(page.status, 200, path);
    assert.match(page.body, SELECTED("alpha"), path);
    assert.match(page.body, new RegExp(`<form method="get" action="${tab}"`), path);
  }
  const logs = await app.call("superAdmin", "GET", "/admin/logs?group=alpha");
  assert.match(logs.body, SELECTED("alpha"));
});

Deno.test("the tabs keep the current group, and a person with one group skips the choice", async () => {
  await using app = await startAdminApp();
  const page = await app.call("superAdmin", "GET", "/admin/events/alpha");
  assert.equal(page.status, 200);
  for (const tab of ["groups", "routes", "events", "logs", "audit"]) {
    assert.match(page.body, new RegExp(`href="/admin/${tab}\\?group=alpha"`), tab);
  }
  assert.match(page.body, /href="\/admin\?group=alpha"/);
  const routesTab = await app.call("superAdmin", "GET", "/admin/routes?group=alpha");
  assert.equal(routesTab.headers.get("location"), "/admin/routes/alpha");
  const logs = await app.call("superAdmin", "GET", "/admin/logs?group=alpha");
  assert.match(logs.body, SELECTED("alpha"), "the logs tab opens with the group chosen");
  const index = await app.call("superAdmin", "GET", "/admin/routes");
  assert.doesNotMatch(index.body, /href="\/admin\/events\?group=/, "no group, plain tabs");

  for (const tab of ["routes", "events"]) {
    const only = await app.call("viewer", "GET", `/admin/${tab}`);
    assert.equal(only.status, 302, tab);
    assert.equal(only.headers.get("location"), `/admin/${tab}/alpha`);
  }
});
