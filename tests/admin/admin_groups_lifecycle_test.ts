/** Rename, the invite lifecycle, and the group webhook secret against the real ingress. */
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { replaceFragments } from "../../lib/store/config/fragments.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { createInvite, INVITE_LIFETIME_MS } from "../../lib/store/config/invites.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import type { Group } from "../../lib/types.ts";
import { type AdminApp, type Caller, PEOPLE, route, startAdminApp } from "../_admin_helpers.ts";

async function ingress(app: AdminApp, groupId: string, secret: string) {
  const body = utf8(JSON.stringify({ ref: "refs/heads/main", repository: { full_name: "a/b" } }));
  const res = await app.t.fetch(`/webhook/${groupId}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "push",
      "x-hub-signature-256": await signGithubBody(secret, body),
    },
    body,
  });
  await res.body?.cancel();
  return res.status;
}

async function acceptAs(app: AdminApp, caller: Exclude<Caller, "none">, token: string) {
  const cookie = await app.cookie(caller);
  const page = await app.t.fetch(`/admin/invite?token=${encodeURIComponent(token)}`, {
    headers: { cookie, accept: "text/html" },
  });
  const html = await page.text();
  const csrf = html.match(/name="csrf_token" value="([^"]+)"/)?.[1];
  if (page.status !== 200 || !csrf) return { status: page.status, html };
  const res = await app.t.fetch("/admin/invite", {
    method: "POST",
    headers: { cookie, origin: "http://localhost" },
    body: new URLSearchParams({ token, csrf_token: csrf }),
    redirect: "manual",
  });
  return { status: res.status, html: await res.text(), location: res.headers.get("location") };
}

Deno.test("webhook: regenerate answers the secret once; without grace the ingress takes the new one and refuses the old", async () => {
  await using app = await startAdminApp();
  const off = await app.call("owner", "GET", "/admin/api/groups/alpha/webhook");
  assert.deepEqual(off.body, { url: "http://localhost:8000/webhook/alpha", enabled: false });
  const first = await app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate");
  assert.equal(first.body.url, "http://localhost:8000/webhook/alpha");
  assert.match(first.body.secret, /^[0-9a-f]{64}$/);
  assert.equal(await ingress(app, "alpha", first.body.secret), 200);

  const second = await app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate", {
    body: { graceSeconds: 0 },
  });
  assert.notEqual(second.body.secret, first.body.secret);
  assert.equal(await ingress(app, "alpha", second.body.secret), 200);
  assert.equal(await ingress(app, "alpha", first.body.secret), 401);

  const on = await app.call("owner", "GET", "/admin/api/groups/alpha/webhook");
  assert.equal(on.body.enabled, true);
  assert.equal(typeof on.body.createdAt, "number");
  assert.equal("secret" in on.body, false);

  assert.deepEqual((await app.call("owner", "DELETE", "/admin/api/groups/alpha/webhook")).body, {
    ok: true,
  });
  assert.equal(await ingress(app, "alpha", second.body.secret), 404);
});

Deno.test("rename: routes, fragments, secret, invites and members follow; the old id is 404", async () => {
  await using app = await startAdminApp();
  await replaceRoutes(app.kv, [route("beta", "b1"), route("alpha", "a1"), route("alpha", "a2")]);
  await replaceFragments(app.kv, "alpha", [
    { id: "f1", groupId: "alpha", name: "Pushes", node: { type: "event", value: "push" } },
  ]);
  const { secret } = (await app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate"))
    .body;
  const invite = await app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
    body: { role: "viewer" },
  });

  const renamed = await app.call("owner", "PUT", "/admin/api/groups/alpha/rename", {
    body: { newId: "alpha-team", name: "Alpha team" },
  });
  assert.deepEqual(renamed.body, { ok: true, id: "alpha-team" });

  assert.deepEqual(
    (await getRoutes(app.kv)).routes.map((r) => `${r.groupId}/${r.id}`),
    ["beta/b1", "alpha-team/a1", "alpha-team/a2"],
  );
  const group = await getGroup(app.kv, "alpha-team");
  assert.equal(group?.name, "Alpha team");
  assert.deepEqual(group?.members.map((m) => m.userId), ["1", "2", "3"]);
  const fragments = await app.call("viewer", "GET", "/admin/api/groups/alpha-team/fragments");
  assert.deepEqual(fragments.body.fragments.map((f: { groupId: string }) => f.groupId), [
    "alpha-team",
  ]);
  const invites = await app.call("owner", "GET", "/admin/api/groups/alpha-team/invites");
  assert.deepEqual(invites.body.invites.map((i: { token: string }) => i.token), [
    invite.body.token,
  ]);
  assert.equal(await ingress(app, "alpha-team", secret), 200);
  assert.equal(await ingress(app, "alpha", secret), 404);

  for (const path of ["routes", "fragments", "invites", "webhook"]) {
    const old = await app.call("owner", "GET", `/admin/api/groups/alpha/${path}`);
    assert.equal(old.status, 404, path);
  }
  const accepted = await acceptAs(app, "stranger", invite.body.token);
  assert.equal(accepted.location, "/admin?invite=ok");
  assert.ok((await getGroup(app.kv, "alpha-team"))?.members.some((m) => m.userId === "5"));

  const taken = await app.call("owner", "PUT", "/admin/api/groups/alpha-team/rename", {
    body: { newId: "beta" },
  });
  assert.equal(taken.status, 409);
  assert.deepEqual(taken.body, { error: "newId: group beta already exists" });
});

Deno.test("invites: create, list, accept once with the role they carry, revoke, expire", async () => {
  await using app = await startAdminApp();
  const before = Date.now();
  const created = await app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
    body: { role: "admin" },
  });
  const after = Date.now();
  assert.equal(created.status, 201);
  assert.equal(created.body.role, "admin");
  assert.equal(
    created.body.url,
    `http://localhost:8000/admin/invite?token=${encodeURIComponent(created.body.token)}`,
  );
  const week = 7 * 24 * 60 * 60 * 1000;
  assert.ok(created.body.expiresAt >= before + week, "expires 7 days after it was made");
  assert.ok(created.body.expiresAt <= after + week, "expires 7 days after it was made");

  const page = await app.t.fetch(`/admin/invite?token=${created.body.token}`, {
    headers: { accept: "text/html" },
    redirect: "manual",
  });
  assert.equal(page.status, 302, "a visitor without a session signs in first");
  assert.equal(
    page.headers.get("location"),
    `/admin/login?redirect=${encodeURIComponent(`/admin/invite?token=${created.body.token}`)}`,
  );

  const accepted = await acceptAs(app, "stranger", created.body.token);
  assert.equal(accepted.status, 303);
  const member = (await getGroup(app.kv, "alpha"))?.members.find((m) => m.userId === "5");
  assert.deepEqual(member, { ...PEOPLE.stranger, role: "admin" });
  const again = await acceptAs(app, "viewer", created.body.token);
  assert.equal(again.status, 404, "an invite works once");
  assert.match(again.html, /unknown, already used, revoked or expired/);

  const upgrade = await app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
    body: { role: "admin" },
  });
  await acceptAs(app, "viewer", upgrade.body.token);
  const viewer = (await getGroup(app.kv, "alpha"))?.members.find((m) => m.userId === "3");
  assert.equal(viewer?.role, "admin", "an admin invite upgrades a viewer");

  const revoked = await app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
    body: { role: "viewer" },
  });
  const listed = await app.call("owner", "GET", "/admin/api/groups/alpha/invites");
  assert.deepEqual(listed.body.invites.map((i: { token: string }) => i.token), [
    revoked.body.token,
  ]);
  const revoke = await app.call("owner", "DELETE", `/admin/api/invites/${revoked.body.token}`);
  assert.deepEqual(revoke.body, { ok: true });
  assert.equal((await acceptAs(app, "otherOwner", revoked.body.token)).status, 404);
  const twice = await app.call("owner", "DELETE", `/admin/api/invites/${revoked.body.token}`);
  assert.equal(twice.status, 404);

  const expired = await createInvite(
    app.kv,
    { groupId: "alpha", role: "viewer", createdBy: PEOPLE.owner },
    Date.now() - INVITE_LIFETIME_MS - 1000,
  );
  assert.equal((await acceptAs(app, "otherOwner", expired!.token)).status, 404);
  assert.equal((await getGroup(app.kv, "alpha"))?.members.some((m) => m.userId === "4"), false);
});

Deno.test("invites: a form without the session's token is refused", async () => {
  await using app = await startAdminApp();
  const created = await app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
    body: { role: "viewer" },
  });
  const res = await app.t.fetch("/admin/invite", {
    method: "POST",
    headers: { cookie: await app.cookie("stranger"), origin: "http://localhost" },
    body: new URLSearchParams({ token: created.body.token, csrf_token: "forged" }),
  });
  await res.body?.cancel();
  assert.equal(res.status, 403);
  assert.equal((await getGroup(app.kv, "alpha"))?.members.length, 3);
});

Deno.test("invites: accepting into a group with no room left is 409 with a clear message", async () => {
  await using app = await startAdminApp();
  const alpha = await getGroup(app.kv, "alpha");
  assert.ok(alpha);
  const filler: Group["members"] = [];
  const full = () => ({ ...alpha, members: [...alpha.members, ...filler] });
  while (utf8(JSON.stringify(full())).length < 59_950) {
    filler.push({ userId: String(10_000 + filler.length), login: "m", role: "viewer" });
  }
  await putGroup(app.kv, full());
  const invite = await app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
    body: { role: "viewer" },
  });
  assert.equal(invite.status, 201);
  const accepted = await acceptAs(app, "stranger", invite.body.token);
  assert.equal(accepted.status, 409);
  assert.match(accepted.html, /no room for another member/);
  const after = await getGroup(app.kv, "alpha");
  assert.equal(after?.members.length, alpha.members.length + filler.length);
});

Deno.test("invites: a member who opens a link for a role they have is told so, and the invite stays unused", async () => {
  await using app = await startAdminApp();
  const created = await app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
    body: { role: "viewer" },
  });
  const page = await app.t.fetch(`/admin/invite?token=${created.body.token}`, {
    headers: { cookie: await app.cookie("admin"), accept: "text/html" },
  });
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /You are already in Alpha/);
  assert.match(html, /You are a member of this group \(admin\)\. The invite stays unused/);
  assert.doesNotMatch(html, /Join the group/);
  const forced = await app.t.fetch("/admin/invite", {
    method: "POST",
    headers: { cookie: await app.cookie("admin"), origin: "http://localhost" },
    body: new URLSearchParams({ token: created.body.token, csrf_token: "x" }),
  });
  await forced.body?.cancel();
  const listed = await app.call("owner", "GET", "/admin/api/groups/alpha/invites");
  assert.deepEqual(
    listed.body.invites.map((invite: { token: string }) => invite.token),
    [created.body.token],
    "still pending for the person it is meant for",
  );
  const superAdmin = await app.t.fetch(`/admin/invite?token=${created.body.token}`, {
    headers: { cookie: await app.cookie("superAdmin"), accept: "text/html" },
  });
  assert.match(await superAdmin.text(), /As a super admin you can already open every group/);
  const accepted = await acceptAs(app, "stranger", created.body.token);
  assert.equal(accepted.status, 303, "the person it was for can still use it");
});

Deno.test("rename: a group with 199 routes in an instance of 200 renames; every route follows in place and the old id is 404", async () => {
  await using app = await startAdminApp();
  const alphaRoutes = Array.from({ length: 199 }, (_, i) => route("alpha", `a${i}`));
  await replaceRoutes(app.kv, [route("beta", "b1"), ...alphaRoutes]);

  const renamed = await app.call("owner", "PUT", "/admin/api/groups/alpha/rename", {
    body: { newId: "x" },
  });
  assert.deepEqual({ status: renamed.status, body: renamed.body }, {
    status: 200,
    body: { ok: true, id: "x" },
  });
  assert.deepEqual(
    (await getRoutes(app.kv)).routes,
    [route("beta", "b1"), ...alphaRoutes.map((r) => ({ ...r, groupId: "x" }))],
  );
  const moved = await app.call("viewer", "GET", "/admin/api/groups/x/routes");
  assert.equal(moved.body.routes.length, 199);
  assert.equal((await app.call("owner", "GET", "/admin/api/groups/alpha")).status, 404);
  assert.equal((await app.call("owner", "GET", "/admin/api/groups/alpha/routes")).status, 404);
  const [entry] = (await app.call("owner", "GET", "/admin/api/audit?action=group.rename")).body
    .items;
  assert.deepEqual(entry.detail, { from: "alpha", to: "x", routes: 199 });
});

Deno.test("webhook: switching off a group without a secret answers 200 and writes no audit entry", async () => {
  await using app = await startAdminApp();
  const audit = async () =>
    (await app.call("owner", "GET", "/admin/api/audit?groupId=alpha")).body.items.map(
      (entry: { action: string }) => entry.action,
    );
  const off = await app.call("owner", "DELETE", "/admin/api/groups/alpha/webhook");
  assert.deepEqual({ status: off.status, body: off.body }, { status: 200, body: { ok: true } });
  assert.deepEqual(await audit(), []);

  await app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate");
  assert.equal((await app.call("owner", "DELETE", "/admin/api/groups/alpha/webhook")).status, 200);
  assert.equal((await app.call("owner", "DELETE", "/admin/api/groups/alpha/webhook")).status, 200);
  assert.deepEqual(await audit(), ["webhook.delete", "webhook.regenerate"]);
});
