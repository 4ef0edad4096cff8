/** The validation table: each rule once, with the message that names the field; and the limits. */
import assert from "node:assert/strict";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import { listGroups, putGroup } from "../../lib/store/config/groups.ts";
import type { Route } from "../../lib/types.ts";
import { allowTarget, ALPHA, route, startAdminApp } from "../_admin_helpers.ts";

const ROUTES = "/admin/api/routes";
const ALPHA_ROUTES = "/admin/api/groups/alpha/routes";
const GROUPS = "/admin/api/groups";
const ID_RULE = "must be 1-64 lower-case letters, digits, _ or -, starting with a letter or digit";

const TABLE: { rule: string; method: string; path: string; body: unknown; error: string }[] = [
  {
    rule: "route id format",
    method: "PUT",
    path: ROUTES,
    body: { routes: [route("alpha", "Bad id")] },
    error: `routes[0].id: ${ID_RULE}`,
  },
  {
    rule: "route id unique within its group",
    method: "PUT",
    path: ROUTES,
    body: { routes: [route("alpha", "r1"), route("beta", "r1"), route("alpha", "r1")] },
    error: 'routes[2].id: duplicate route id "r1" in group "alpha"',
  },
  {
    rule: "route name",
    method: "PUT",
    path: ROUTES,
    body: { routes: [{ ...route("alpha", "r1"), name: "" }] },
    error: "routes[0].name: required",
  },
  {
    rule: "route enabled",
    method: "PUT",
    path: ROUTES,
    body: { routes: [{ ...route("alpha", "r1"), enabled: "yes" }] },
    error: "routes[0].enabled: expected boolean",
  },
  {
    rule: "route groupId names a group",
    method: "PUT",
    path: ROUTES,
    body: { routes: [route("zzz", "r1")] },
    error: 'routes[0].groupId: unknown group "zzz"',
  },
  {
    rule: "route groupId is the group in the path",
    method: "PUT",
    path: ALPHA_ROUTES,
    body: { routes: [route("beta", "r1")] },
    error: 'routes[0].groupId: must be "alpha", the group in the path',
  },
  {
    rule: "empty filters only for a fallback route",
    method: "PUT",
    path: ROUTES,
    body: { routes: [route("alpha", "r1", { filters: [] })] },
    error: "routes[0].filters: only a fallback route may have no filters (add a filter or an ast)",
  },
  {
    rule: "discordRoleIds are Discord ids",
    method: "PUT",
    path: ROUTES,
    body: { routes: [{ ...route("alpha", "r1"), discordRoleIds: ["5", "@everyone"] }] },
    error: "routes[0].discordRoleIds[1]: must be a Discord id (digits)",
  },
  {
    rule: "a Discord target needs channelId",
    method: "PUT",
    path: ROUTES,
    body: {
      routes: [
        route("alpha", "r0"),
        route("alpha", "r1"),
        route("alpha", "r2"),
        { ...route("alpha", "r3"), targets: [{ platform: "discord" }] },
      ],
    },
    error: "routes[3].targets[0].channelId: required",
  },
  {
    rule: "a Telegram target needs chatId",
    method: "PUT",
    path: ROUTES,
    body: { routes: [{ ...route("alpha", "r1"), targets: [{ platform: "telegram" }] }] },
    error: "routes[0].targets[0].chatId: required",
  },
  {
    rule: "the filter tree is valid",
    method: "PUT",
    path: ROUTES,
    body: {
      routes: [
        route("alpha", "r1", {
          ast: { any: [{ type: "field", path: "$.a", op: "regex", value: "(" }] },
        }),
      ],
    },
    error: "routes[0].ast.any[0].value: invalid regex: missing closing ): `(`",
  },
  {
    rule: "the body names routes",
    method: "PUT",
    path: ROUTES,
    body: { rutes: [] },
    error: "routes: required (and 1 more)",
  },
  {
    rule: "a group has an owner",
    method: "PUT",
    path: GROUPS,
    body: { groups: [{ ...ALPHA, members: [{ userId: "1", login: "olivia", role: "admin" }] }] },
    error: "groups[0].members: at least one owner is required",
  },
  {
    rule: "group providers",
    method: "PUT",
    path: GROUPS,
    body: { groups: [{ ...ALPHA, providers: ["gitlab"] }] },
    error: 'groups[0].providers[0]: must be one of "github", "gitea"',
  },
  {
    rule: "group installationId",
    method: "PUT",
    path: GROUPS,
    body: { groups: [{ ...ALPHA, installationId: -3 }] },
    error: "groups[0].installationId: must be a positive integer",
  },
  {
    rule: "group id format",
    method: "PUT",
    path: GROUPS,
    body: { groups: [{ ...ALPHA, id: "Alpha!" }] },
    error: `groups[0].id: ${ID_RULE}`,
  },
  {
    rule: "group ids unique",
    method: "PUT",
    path: GROUPS,
    body: { groups: [ALPHA, ALPHA] },
    error: 'groups[1].id: duplicate group id "alpha"',
  },
  {
    rule: "fragment node",
    method: "PUT",
    path: "/admin/api/groups/alpha/fragments",
    body: {
      fragments: [{
        id: "f1",
        groupId: "alpha",
        name: "Broken",
        node: { not: { type: "field", path: "$..[", op: "eq", value: 1 } },
      }],
    },
    error: 'fragments[0].node.not.path: invalid JSONPath: unclosed "["',
  },
  {
    rule: "fragment groupId is the group in the path",
    method: "PUT",
    path: "/admin/api/groups/alpha/fragments",
    body: { fragments: [{ id: "f1", groupId: "beta", name: "All", node: { all: [] } }] },
    error: 'fragments[0].groupId: must be "alpha", the group in the path',
  },
  {
    rule: "test-match tree",
    method: "POST",
    path: "/admin/api/test-match",
    body: { node: { all: [{ type: "field", path: "$.a", op: "gt", value: "abc" }] }, payload: {} },
    error: "node.all[0].value: op gt needs a number, a numeric string or an ISO-8601 timestamp",
  },
  {
    rule: "test-match needs node or filters",
    method: "POST",
    path: "/admin/api/test-match",
    body: { payload: {} },
    error: "node: give either node or filters",
  },
  {
    rule: "rename newId format",
    method: "PUT",
    path: "/admin/api/groups/alpha/rename",
    body: { newId: "Bad Id" },
    error: `newId: ${ID_RULE}`,
  },
  {
    rule: "invite role",
    method: "POST",
    path: "/admin/api/groups/alpha/invites",
    body: { role: "owner" },
    error: 'role: must be one of "admin", "viewer"',
  },
  {
    rule: "page size",
    method: "GET",
    path: "/admin/api/logs?limit=500",
    body: undefined,
    error: "limit: must be 1..200",
  },
  {
    rule: "time bound",
    method: "GET",
    path: "/admin/api/audit?from=yesterday",
    body: undefined,
    error: "from: must be Unix milliseconds or an ISO-8601 time",
  },
];

for (const row of TABLE) {
  Deno.test(`validation: ${row.rule}`, async () => {
    await using app = await startAdminApp();
    const answer = await app.call("superAdmin", row.method, row.path, { body: row.body });
    assert.deepEqual({ status: answer.status, body: answer.body }, {
      status: 400,
      body: { error: row.error },
    });
  });
}

Deno.test("validation: a body that is not JSON is 400", async () => {
  await using app = await startAdminApp();
  const res = await app.t.fetch(ROUTES, {
    method: "PUT",
    headers: { cookie: await app.cookie("superAdmin") },
    body: "{",
  });
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), { error: "Invalid JSON" });
});

Deno.test("validation: routes identical to the stored ones skip full validation", async () => {
  await using app = await startAdminApp();
  const legacy: Route = { ...route("alpha", "legacy"), name: "x".repeat(150) };
  await replaceRoutes(app.kv, [legacy]);
  await allowTarget(app.kv, "alpha");
  const kept = await app.call("admin", "PUT", ALPHA_ROUTES, {
    body: { routes: [legacy, route("alpha", "new")] },
  });
  assert.deepEqual(kept.body, { ok: true, count: 2 });
  const changed = await app.call("admin", "PUT", ALPHA_ROUTES, {
    body: { routes: [{ ...legacy, enabled: false }] },
  });
  assert.deepEqual(changed.body, { error: "routes[0].name: at most 100 characters" });
});

Deno.test("limits: at most 200 routes per instance", async () => {
  await using app = await startAdminApp();
  await replaceRoutes(app.kv, Array.from({ length: 150 }, (_, i) => route("beta", `b${i}`)));
  await allowTarget(app.kv, "alpha");
  const routes = Array.from({ length: 51 }, (_, i) => route("alpha", `a${i}`));
  const group = await app.call("owner", "PUT", ALPHA_ROUTES, { body: { routes } });
  assert.equal(group.status, 400);
  assert.deepEqual(group.body, { error: "routes: at most 200 routes per instance" });
  const all = Array.from({ length: 201 }, (_, i) => route("alpha", `a${i}`));
  const instance = await app.call("superAdmin", "PUT", ROUTES, { body: { routes: all } });
  assert.deepEqual(instance.body, { error: "routes: at most 200 routes per instance" });
  assert.equal((await getRoutes(app.kv)).routes.length, 150);
  const fits = await app.call("owner", "PUT", ALPHA_ROUTES, { body: { routes: routes.slice(1) } });
  assert.deepEqual(fits.body, { ok: true, count: 50 });
});

Deno.test("limits: at most 100 groups per instance", async () => {
  await using app = await startAdminApp();
  for (let i = 0; i < 98; i++) {
    await putGroup(app.kv, { ...ALPHA, id: `g${i}`, name: `G${i}` });
  }
  const groups = await listGroups(app.kv);
  const extra = { ...ALPHA, id: "one-more", name: "One more" };
  const refused = await app.call("superAdmin", "PUT", GROUPS, {
    body: { groups: [...groups, extra] },
  });
  assert.deepEqual(refused.body, { error: "groups: at most 100 groups per instance" });
  const swapped = await app.call("superAdmin", "PUT", GROUPS, {
    body: { groups: [...groups.slice(1), extra] },
  });
  assert.deepEqual(swapped.body, { ok: true, count: 100 });
});

Deno.test("limits: replacing all 100 groups with 100 others succeeds and leaves exactly the new set", async () => {
  await using app = await startAdminApp();
  for (let i = 0; i < 98; i++) {
    await putGroup(app.kv, { ...ALPHA, id: `g${i}`, name: `G${i}` });
  }
  await replaceRoutes(app.kv, [route("g0", "r0"), route("alpha", "a1")]);
  assert.equal((await listGroups(app.kv)).length, 100);
  const others = Array.from({ length: 100 }, (_, i) => ({ ...ALPHA, id: `n${i}`, name: `N${i}` }));
  const listed = await app.call("superAdmin", "GET", GROUPS);
  const answer = await app.call("superAdmin", "PUT", GROUPS, {
    body: { groups: others },
    headers: { "if-match": listed.headers.get("etag")! },
  });
  assert.deepEqual(answer.body, { ok: true, count: 100 });
  const after = await app.call("superAdmin", "GET", GROUPS);
  assert.deepEqual(
    after.body.groups.map((g: { id: string }) => g.id).sort(),
    others.map((g) => g.id).sort(),
  );
  assert.deepEqual(after.body.groups, await listGroups(app.kv));
  assert.deepEqual((await getRoutes(app.kv)).routes, [], "the old groups' routes are gone");
  const audit = await app.call("superAdmin", "GET", "/admin/api/audit?limit=200");
  const actions = audit.body.items.map((e: { action: string }) => e.action);
  assert.equal(actions.filter((a: string) => a === "group.create").length, 100);
  assert.equal(actions.filter((a: string) => a === "group.delete").length, 100);
});

Deno.test("limits: a group too large to store is refused with 400 and changes nothing", async () => {
  await using app = await startAdminApp();
  const members = Array.from({ length: 1500 }, (_, i) => ({
    userId: String(10_000 + i),
    login: `member-number-${i}`,
    role: i === 0 ? "owner" : "viewer",
  }));
  const before = await listGroups(app.kv);
  const answer = await app.call("superAdmin", "PUT", GROUPS, {
    body: { groups: [...before, { ...ALPHA, id: "huge", name: "Huge", members }] },
  });
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.deepEqual(await listGroups(app.kv), before);
});
