/**
 * Replacements: all-or-nothing, the optimistic check (409), who may change what in groups,
 * and the audit entries every write makes.
 */
import assert from "node:assert/strict";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { getFragments } from "../../lib/store/config/fragments.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { createInvite, listInvites } from "../../lib/store/config/invites.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import { getGroupSecret, regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { allowTarget, ALPHA, BETA, PEOPLE, route, startAdminApp } from "../_admin_helpers.ts";

Deno.test("replace: an invalid route anywhere changes nothing", async () => {
  await using app = await startAdminApp();
  await replaceRoutes(app.kv, [route("alpha", "old")]);
  const answer = await app.call("superAdmin", "PUT", "/admin/api/routes", {
    body: {
      routes: [route("alpha", "a"), route("alpha", "b"), route("alpha", "c", { targets: [] })],
    },
  });
  assert.equal(answer.status, 400);
  assert.deepEqual((await getRoutes(app.kv)).routes.map((r) => r.id), ["old"]);
});

Deno.test("replace: readers see the old set or the new one, never a part", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  const routes = Array.from({ length: 150 }, (_, i) => route("alpha", `r${i}`));
  const seen = new Set<number>();
  let done = false;
  const reader = (async () => {
    while (!done) {
      const answer = await app.call("viewer", "GET", "/admin/api/groups/alpha/routes");
      seen.add(answer.body.routes.length);
    }
  })();
  const write = await app.call("admin", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes },
  });
  done = true;
  await reader;
  assert.deepEqual(write.body, { ok: true, count: 150 });
  for (const count of seen) assert.ok(count === 0 || count === 150, `saw ${count} routes`);
});

Deno.test("replace: If-Match with a stale ETag answers 409 (routes, group routes, fragments, groups)", async () => {
  await using app = await startAdminApp();
  const cases = [
    { path: "/admin/api/routes", body: { routes: [route("alpha", "r1")] } },
    { path: "/admin/api/groups/alpha/routes", body: { routes: [route("alpha", "r2")] } },
    {
      path: "/admin/api/groups/alpha/fragments",
      body: { fragments: [{ id: "f", groupId: "alpha", name: "F", node: { all: [] } }] },
    },
    { path: "/admin/api/groups", body: { groups: [{ ...ALPHA, name: "A2" }, BETA] } },
  ];
  for (const { path, body } of cases) {
    const read = await app.call("superAdmin", "GET", path);
    const etag = read.headers.get("etag");
    assert.ok(etag, path);
    const first = await app.call("superAdmin", "PUT", path, {
      body,
      headers: { "if-match": etag },
    });
    assert.equal(first.status, 200, path);
    const second = await app.call("superAdmin", "PUT", path, {
      body,
      headers: { "if-match": etag },
    });
    assert.equal(second.status, 409, path);
    assert.match(second.body.error, /changed since they were read/);
    const lastWriterWins = await app.call("superAdmin", "PUT", path, { body });
    assert.equal(lastWriterWins.status, 200, path);
  }
});

Deno.test("replace: an admin's PUT /routes keeps the routes of groups they may not edit", async () => {
  await using app = await startAdminApp();
  await replaceRoutes(app.kv, [route("beta", "b1"), route("alpha", "a1")]);
  await allowTarget(app.kv, "alpha");
  const listed = await app.call("admin", "GET", "/admin/api/routes");
  assert.deepEqual(listed.body.routes.map((r: { id: string }) => r.id), ["a1"]);
  const answer = await app.call("admin", "PUT", "/admin/api/routes", {
    body: { routes: [route("alpha", "a2")] },
  });
  assert.deepEqual(answer.body, { ok: true, count: 1 });
  const stored = (await getRoutes(app.kv)).routes.map((r) => `${r.groupId}/${r.id}`);
  assert.deepEqual(stored, ["beta/b1", "alpha/a2"]);
  const refused = await app.call("admin", "PUT", "/admin/api/routes", {
    body: { routes: [route("beta", "b1", { name: "Mine now" })] },
  });
  assert.deepEqual(refused.body, { error: "Only an owner or admin may change group beta" });
});

Deno.test("groups: only a super admin sets installationId or owners, or creates groups", async () => {
  await using app = await startAdminApp();
  const bound = await app.call("owner", "PUT", "/admin/api/groups", {
    body: { groups: [{ ...ALPHA, installationId: 42 }] },
  });
  assert.equal(bound.status, 403);
  assert.deepEqual(bound.body, {
    error: "Only a super admin may set installationId (group alpha)",
  });
  const owners = await app.call("owner", "PUT", "/admin/api/groups", {
    body: { groups: [{ ...ALPHA, owners: ["someone-else"] }] },
  });
  assert.equal(owners.status, 403);
  const created = await app.call("owner", "PUT", "/admin/api/groups", {
    body: { groups: [ALPHA, { ...ALPHA, id: "gamma", name: "Gamma" }] },
  });
  assert.deepEqual(created.body, { error: "Only a super admin may create groups (gamma)" });
  const bySuper = await app.call("superAdmin", "PUT", "/admin/api/groups", {
    body: { groups: [{ ...ALPHA, installationId: 42, owners: ["acme"] }, BETA] },
  });
  assert.equal(bySuper.status, 200);
  assert.equal((await getGroup(app.kv, "alpha"))?.installationId, 42);
  const keep = await app.call("owner", "PUT", "/admin/api/groups", {
    body: { groups: [{ ...ALPHA, installationId: 42, owners: ["acme"], name: "Renamed" }] },
  });
  assert.equal(keep.status, 200, "unchanged binding fields pass");
});

Deno.test("groups: an owner replaces only their own groups; omitting one deletes it with its data", async () => {
  await using app = await startAdminApp();
  await putGroup(app.kv, { ...ALPHA, id: "alpha-two", name: "Alpha two" });
  await replaceRoutes(app.kv, [route("alpha-two", "x"), route("beta", "b1")]);
  await regenerateGroupSecret(app.kv, "alpha-two");
  await createInvite(app.kv, { groupId: "alpha-two", role: "viewer", createdBy: PEOPLE.owner });
  const listed = await app.call("owner", "GET", "/admin/api/groups");
  assert.deepEqual(listed.body.groups.map((g: { id: string }) => g.id), ["alpha", "alpha-two"]);
  assert.deepEqual(listed.body.roles, { alpha: "owner", "alpha-two": "owner" });

  const answer = await app.call("owner", "PUT", "/admin/api/groups", { body: { groups: [ALPHA] } });
  assert.deepEqual(answer.body, { ok: true, count: 1 });
  assert.equal(await getGroup(app.kv, "alpha-two"), null);
  assert.ok(await getGroup(app.kv, "beta"), "another owner's group stays");
  assert.deepEqual((await getRoutes(app.kv)).routes.map((r) => r.id), ["b1"]);
  assert.equal(await getGroupSecret(app.kv, "alpha-two"), null);
  assert.deepEqual(await listInvites(app.kv, "alpha-two"), []);

  const recreated = await app.call("superAdmin", "PUT", "/admin/api/groups", {
    body: { groups: [ALPHA, BETA, { ...ALPHA, id: "alpha-two", name: "Again" }] },
  });
  assert.equal(recreated.status, 200);
  assert.deepEqual((await getFragments(app.kv, "alpha-two")).fragments, []);
  assert.equal(await getGroupSecret(app.kv, "alpha-two"), null);
});

Deno.test("audit: every write makes an entry with actor, action and group, never a secret", async () => {
  await using app = await startAdminApp();
  const writes: [method: string, path: string, status: number, body?: unknown][] = [
    ["PUT", "/admin/api/groups/alpha/routes", 200, { routes: [route("alpha", "r1")] }],
    ["PUT", "/admin/api/routes", 200, { routes: [route("alpha", "r1"), route("alpha", "r2")] }],
    ["PUT", "/admin/api/groups/alpha/fragments", 200, { fragments: [] }],
    ["PUT", "/admin/api/groups", 200, { groups: [{ ...ALPHA, name: "Alpha!" }, BETA] }],
    ["POST", "/admin/api/groups/alpha/invites", 201, { role: "viewer" }],
    ["POST", "/admin/api/groups/alpha/webhook/regenerate", 200],
    ["DELETE", "/admin/api/groups/alpha/webhook", 200],
    ["PUT", "/admin/api/groups/alpha/rename", 200, { newId: "alpha-2" }],
  ];
  let secret = "";
  for (const [method, path, status, body] of writes) {
    const answer = await app.call("superAdmin", method, path, { body });
    assert.equal(answer.status, status, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    if (answer.body.secret) secret = answer.body.secret;
  }
  const entries = (await listAuditEntries(app.kv)).reverse();
  assert.deepEqual(entries.map((e) => [e.action, e.groupId]), [
    ["targets.allow", "alpha"],
    ["routes.replace", "alpha"],
    ["routes.replace", "alpha"],
    ["fragments.replace", "alpha"],
    ["group.update", "alpha"],
    ["invite.create", "alpha"],
    ["webhook.regenerate", "alpha"],
    ["webhook.delete", "alpha"],
    ["group.rename", "alpha-2"],
  ]);
  for (const entry of entries) assert.deepEqual(entry.actor, PEOPLE.superAdmin);
  assert.deepEqual(entries[0].detail, { added: ["discord channel 123456789"], via: "routes" });
  assert.deepEqual(entries[4].detail, { fields: ["name"] });
  const text = JSON.stringify(entries);
  assert.notEqual(secret, "", "the regenerated secret was answered");
  assert.ok(!text.includes(secret), "the secret is never recorded");
});
