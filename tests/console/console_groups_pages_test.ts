/**
 * The group pages as the server renders them (readable without JavaScript): who sees which
 * groups and which parts of a group, and the list's webhook state from batched reads.
 */
import assert from "node:assert/strict";
import { listGroupRows } from "../../lib/admin/group_pages.ts";
import { principalFor } from "../../lib/auth/principal.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { createInvite } from "../../lib/store/config/invites.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { type AdminApp, ALPHA, type Caller, PEOPLE, startAdminApp } from "../_admin_helpers.ts";

async function html(app: AdminApp, caller: Exclude<Caller, "none">, path: string) {
  const res = await app.t.fetch(path, {
    headers: { cookie: await app.cookie(caller), accept: "text/html" },
    redirect: "manual",
  });
  return { status: res.status, text: await res.text() };
}

Deno.test("group list: each person sees their groups with role, members, webhook and binding", async () => {
  await using app = await startAdminApp();
  for (let index = 0; index < 23; index++) {
    await putGroup(app.kv, { ...ALPHA, id: `g${index}`, name: `G${index}` });
    if (index % 2 === 0) await regenerateGroupSecret(app.kv, `g${index}`);
  }
  await putGroup(app.kv, { ...ALPHA, installationId: 7, owners: ["acme", "octo"] });
  await regenerateGroupSecret(app.kv, "alpha");
  const rows = async (person: keyof typeof PEOPLE) =>
    await listGroupRows(
      app.kv,
      await principalFor(app.kv, app.t.config, PEOPLE[person], {
        csrfToken: "x",
        sessionId: "y",
      }),
    );
  const forOther = await rows("otherOwner");
  assert.deepEqual(forOther, [
    { id: "beta", name: "Beta", role: "owner", members: 1, webhook: false, binding: null },
  ]);
  const forViewer = await rows("viewer");
  assert.equal(forViewer.length, 24);
  assert.deepEqual(forViewer[0], {
    id: "alpha",
    name: "Alpha",
    role: "viewer",
    members: 3,
    webhook: true,
    binding: "installation 7 · accounts acme, octo",
  });
  assert.deepEqual(
    forViewer.filter((row) => row.webhook).map((row) => row.id).sort(),
    ["alpha", ...Array.from({ length: 12 }, (_, index) => `g${index * 2}`)].sort(),
  );
  assert.equal((await rows("superAdmin")).length, 25);

  const page = await html(app, "otherOwner", "/admin/groups");
  assert.equal(page.status, 200);
  assert.match(page.text, /href="\/admin\/groups\/beta"/);
  assert.doesNotMatch(page.text, /\/admin\/groups\/alpha/);
  assert.doesNotMatch(page.text, /Create a group/, "only a super admin creates groups");
});

Deno.test("group page: an owner gets members, invites and webhook; a viewer only what they may read", async () => {
  await using app = await startAdminApp();
  const invite = await createInvite(app.kv, {
    groupId: "alpha",
    role: "admin",
    createdBy: PEOPLE.owner,
  });
  const owner = await html(app, "owner", "/admin/groups/alpha");
  assert.equal(owner.status, 200);
  for (const part of ["Members", "Invites", "Webhook", "Connect a repository", "Name and id"]) {
    assert.match(owner.text, new RegExp(`>${part}</h2>`), part);
  }
  assert.match(owner.text, /by olivia.*expires \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 7 days\)/s);
  assert.match(owner.text, /value="http:\/\/localhost:8000\/webhook\/alpha"/);
  assert.match(owner.text, /application\/json/);

  const viewer = await html(app, "viewer", "/admin/groups/alpha");
  assert.equal(viewer.status, 200);
  assert.match(viewer.text, />Members<\/h2>/);
  assert.match(viewer.text, />Allowed chat targets<\/h2>/);
  for (const part of ["Invites", "Webhook", "Name and id"]) {
    assert.doesNotMatch(viewer.text, new RegExp(`>${part}</h2>`), part);
  }
  assert.ok(!viewer.text.includes(invite!.token), "a viewer never gets an invite token");

  assert.equal((await html(app, "otherOwner", "/admin/groups/alpha")).status, 403);
  assert.equal((await html(app, "superAdmin", "/admin/groups/nope")).status, 404);
  assert.equal((await html(app, "superAdmin", "/admin/groups/Not%20an%20id")).status, 400);
});
