/**
 * One group at a time: `POST /admin/api/groups`, `GET`/`PUT`/`DELETE /admin/api/groups/:id`:
 * the set's rights and limits, its own ETag, and nothing of other groups touched.
 */
import assert from "node:assert/strict";
import { MAX_GROUPS } from "../../lib/limits.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { getGroup, listGroups, putGroup } from "../../lib/store/config/groups.ts";
import { createInvite, listInvites } from "../../lib/store/config/invites.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import { getGroupSecret, regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import type { Group } from "../../lib/types.ts";
import { ALPHA, BETA, PEOPLE, route, startAdminApp } from "../_admin_helpers.ts";

const GAMMA: Group = {
  id: "gamma",
  name: "Gamma",
  members: [{ ...PEOPLE.superAdmin, role: "owner" }],
};

Deno.test("group create: a super admin creates one group; the others stay as stored", async () => {
  await using app = await startAdminApp();
  await regenerateGroupSecret(app.kv, "gamma");
  const created = await app.call("superAdmin", "POST", "/admin/api/groups", { body: GAMMA });
  assert.equal(created.status, 201);
  assert.deepEqual(created.body, { ok: true, id: "gamma" });
  assert.match(created.headers.get("etag") ?? "", /^"[0-9a-f]{32}"$/);
  assert.deepEqual(await listGroups(app.kv), [ALPHA, BETA, GAMMA]);
  assert.equal(await getGroupSecret(app.kv, "gamma"), null, "a leftover secret is cleared");
  const [entry] = await listAuditEntries(app.kv);
  assert.equal(entry.action, "group.create");
  assert.equal(entry.groupId, "gamma");
  assert.deepEqual(entry.actor, PEOPLE.superAdmin);

  const again = await app.call("superAdmin", "POST", "/admin/api/groups", {
    body: { ...GAMMA, name: "Other" },
  });
  assert.equal(again.status, 409);
  assert.deepEqual(again.body, { error: "id: group gamma already exists" });
  assert.equal((await getGroup(app.kv, "gamma"))?.name, "Gamma");
});

Deno.test("group create: only a super admin, at least one owner, at most the instance limit", async () => {
  await using app = await startAdminApp();
  const byOwner = await app.call("owner", "POST", "/admin/api/groups", { body: GAMMA });
  assert.equal(byOwner.status, 403);
  assert.deepEqual(byOwner.body, { error: "Only a super admin may create groups (gamma)" });
  const ownerless = await app.call("superAdmin", "POST", "/admin/api/groups", {
    body: { ...GAMMA, members: [{ ...PEOPLE.admin, role: "admin" }] },
  });
  assert.equal(ownerless.status, 400);
  assert.deepEqual(ownerless.body, { error: "members: at least one owner is required" });
  const badId = await app.call("superAdmin", "POST", "/admin/api/groups", {
    body: { ...GAMMA, id: "Not An Id" },
  });
  assert.equal(badId.status, 400);
  assert.match(badId.body.error, /^id: must be 1-64 lower-case/);

  for (let index = 2; index < MAX_GROUPS; index++) {
    await putGroup(app.kv, { ...GAMMA, id: `g${index}` });
  }
  const full = await app.call("superAdmin", "POST", "/admin/api/groups", { body: GAMMA });
  assert.equal(full.status, 400);
  assert.deepEqual(full.body, { error: `groups: at most ${MAX_GROUPS} groups per instance` });
  assert.equal((await listGroups(app.kv)).length, MAX_GROUPS);
});

Deno.test("group replace: an owner changes one group's members; the id must be the path's", async () => {
  await using app = await startAdminApp();
  const promoted: Group = {
    ...ALPHA,
    members: ALPHA.members.map((m) =>
      m.userId === PEOPLE.admin.userId ? { ...m, role: "owner" } : m
    ),
  };
  const answer = await app.call("owner", "PUT", "/admin/api/groups/alpha", { body: promoted });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { ok: true, id: "alpha" });
  assert.deepEqual(await getGroup(app.kv, "alpha"), promoted);
  assert.deepEqual(await getGroup(app.kv, "beta"), BETA, "a group not sent is kept");
  const [entry] = await listAuditEntries(app.kv);
  assert.deepEqual([entry.action, entry.groupId, entry.detail], [
    "group.update",
    "alpha",
    { fields: ["members"] },
  ]);

  const moved = await app.call("owner", "PUT", "/admin/api/groups/alpha", {
    body: { ...promoted, id: "alpha-2" },
  });
  assert.equal(moved.status, 400);
  assert.match(moved.body.error, /^id: must be the group id of the path \(alpha\)/);
  const unknown = await app.call("superAdmin", "PUT", "/admin/api/groups/nope", {
    body: { ...ALPHA, id: "nope" },
  });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { error: "Unknown group nope" });
});

Deno.test("group replace: the last owner cannot go, and only a super admin binds", async () => {
  await using app = await startAdminApp();
  const ownerless: Group = {
    ...ALPHA,
    members: ALPHA.members.filter((m) => m.role !== "owner"),
  };
  const removed = await app.call("owner", "PUT", "/admin/api/groups/alpha", { body: ownerless });
  assert.equal(removed.status, 400);
  assert.deepEqual(removed.body, { error: "members: at least one owner is required" });
  const bound = await app.call("owner", "PUT", "/admin/api/groups/alpha", {
    body: { ...ALPHA, installationId: 42 },
  });
  assert.equal(bound.status, 403);
  assert.deepEqual(bound.body, {
    error: "Only a super admin may set installationId (group alpha)",
  });
  assert.deepEqual(await getGroup(app.kv, "alpha"), ALPHA);
  const bySuper = await app.call("superAdmin", "PUT", "/admin/api/groups/alpha", {
    body: { ...ALPHA, installationId: 42, owners: ["acme"] },
  });
  assert.equal(bySuper.status, 200);
  assert.equal((await getGroup(app.kv, "alpha"))?.installationId, 42);
});

Deno.test("group ETag: stale only when that group changed; If-Match answers 409 then", async () => {
  await using app = await startAdminApp();
  const read = await app.call("owner", "GET", "/admin/api/groups/alpha");
  assert.deepEqual(read.body, ALPHA);
  const tag = read.headers.get("etag")!;
  assert.match(tag, /^"[0-9a-f]{32}"$/);

  await app.call("superAdmin", "PUT", "/admin/api/groups/beta", { body: { ...BETA, name: "B" } });
  await app.call("superAdmin", "POST", "/admin/api/groups", { body: GAMMA });
  const renamed = await app.call("owner", "PUT", "/admin/api/groups/alpha", {
    body: { ...ALPHA, name: "Alpha one" },
    headers: { "if-match": tag },
  });
  assert.equal(renamed.status, 200, "writes to other groups leave alpha's tag valid");
  const next = renamed.headers.get("etag")!;
  assert.notEqual(next, tag);
  assert.equal(
    (await app.call("owner", "GET", "/admin/api/groups/alpha")).headers.get("etag"),
    next,
  );

  const stale = await app.call("owner", "PUT", "/admin/api/groups/alpha", {
    body: { ...ALPHA, name: "Lost update" },
    headers: { "if-match": tag },
  });
  assert.equal(stale.status, 409);
  assert.deepEqual(stale.body, {
    error: "The group changed since it was read; reload and try again",
  });
  const staleDelete = await app.call("owner", "DELETE", "/admin/api/groups/alpha", {
    headers: { "if-match": tag },
  });
  assert.equal(staleDelete.status, 409);
  assert.equal((await getGroup(app.kv, "alpha"))?.name, "Alpha one");
});

Deno.test("group delete: one group goes with its routes, secret and invites; others stay", async () => {
  await using app = await startAdminApp();
  await replaceRoutes(app.kv, [route("alpha", "r1"), route("beta", "b1")]);
  await regenerateGroupSecret(app.kv, "alpha");
  await createInvite(app.kv, { groupId: "alpha", role: "viewer", createdBy: PEOPLE.owner });
  const tag = (await app.call("owner", "GET", "/admin/api/groups/alpha")).headers.get("etag")!;
  const answer = await app.call("owner", "DELETE", "/admin/api/groups/alpha", {
    headers: { "if-match": tag },
  });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { ok: true });
  assert.deepEqual(await listGroups(app.kv), [BETA]);
  assert.deepEqual((await getRoutes(app.kv)).routes.map((r) => r.id), ["b1"]);
  assert.equal(await getGroupSecret(app.kv, "alpha"), null);
  assert.deepEqual(await listInvites(app.kv, "alpha"), []);
  const [entry] = await listAuditEntries(app.kv);
  assert.deepEqual([entry.action, entry.groupId, entry.detail], [
    "group.delete",
    "alpha",
    { name: "Alpha" },
  ]);
  const gone = await app.call("superAdmin", "DELETE", "/admin/api/groups/alpha");
  assert.equal(gone.status, 404);
  assert.deepEqual(gone.body, { error: "Unknown group alpha" });
});

Deno.test("group endpoints: the OpenAPI document lists them with the Group schema", async () => {
  await using app = await startAdminApp();
  const document = (await app.call("none", "GET", "/openapi.json")).body;
  const group = { $ref: "#/components/schemas/Group" };
  const body = (operation: { requestBody: { content: Record<string, { schema: unknown }> } }) =>
    operation.requestBody.content["application/json"].schema;
  const one = document.paths["/admin/api/groups/{id}"];
  assert.deepEqual(body(document.paths["/admin/api/groups"].post), group);
  assert.deepEqual(body(one.put), group);
  assert.deepEqual(one.get.responses["200"].content["application/json"].schema, group);
  assert.deepEqual(Object.keys(one.delete.responses), ["200", "400", "401", "403", "404", "409"]);
  assert.ok(one.put.parameters.some((p: { name: string }) => p.name === "If-Match"));
});
