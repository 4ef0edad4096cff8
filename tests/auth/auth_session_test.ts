import assert from "node:assert/strict";
import { requireSameOrigin } from "../../lib/auth/access.ts";
import {
  canEditRoutes,
  canReadGroup,
  hasConsoleAccess,
  isOwner,
  type Principal,
  principalFor,
  readableGroups,
} from "../../lib/auth/principal.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { isHttpError } from "../../lib/fresh/http_error.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { sessionKey } from "../../lib/store/keys.ts";
import { SESSION_LIFETIME_MS } from "../../lib/store/auth/sessions.ts";
import { startTestApp, testConfig } from "../_helpers.ts";
import { githubEnv, signIn, startFakeGitHub } from "../fake_github.ts";
import { openTestKv } from "../../testing/test_store.ts";

const ADA = { id: 101, login: "ada" };
const HTML = { accept: "text/html" };

Deno.test("the session cookie is HttpOnly, SameSite=Lax, Path=/, 7 days; Secure on https", async () => {
  await using fake = startFakeGitHub();
  for (
    const [baseUrl, secure] of [["https://relay.example", true], ["http://localhost:8000", false]]
  ) {
    await using t = await startTestApp(githubEnv(fake, {
      BASE_URL: String(baseUrl),
      ADMIN_USER_IDS: "101",
    }));
    const before = Date.now();
    const { res } = await signIn(t, fake, ADA);
    const after = Date.now();
    const cookie = res.headers.get("set-cookie") ?? "";
    const [pair, ...attributes] = cookie.split("; ");
    assert.match(pair, /^switchyard_session=[\w-]{43}$/);
    assert.deepEqual(
      new Set(attributes),
      new Set([
        "Max-Age=604800",
        "Path=/",
        "HttpOnly",
        "SameSite=Lax",
        ...(secure ? ["Secure"] : []),
      ]),
    );
    const sessionId = pair.split("=")[1];
    const stored = await t.kv.get<{ userId: string; expiresAt: number }>(
      sessionKey(await sha256Hex(sessionId)),
    );
    assert.equal(stored.value?.userId, "101");
    assert.ok(stored.value!.expiresAt >= before + SESSION_LIFETIME_MS, "expires a lifetime on");
    assert.ok(stored.value!.expiresAt <= after + SESSION_LIFETIME_MS, "expires a lifetime on");
    assert.equal((await t.kv.get(["sessions", sessionId])).value, null);
  }
});

Deno.test("sign-out: a cross-site GET only asks; a same-origin POST with the form token ends the session", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: "101" }));
  const { cookie } = await signIn(t, fake, ADA);
  assert.ok(cookie);
  const before = await t.fetch("/admin/groups", { headers: { ...HTML, cookie } });
  assert.equal(before.status, 200);
  assert.match(await before.text(), /href="\/admin\/logout"/);

  const confirm = await t.fetch("/admin/logout", {
    headers: { ...HTML, cookie, "sec-fetch-site": "cross-site" },
  });
  assert.equal(confirm.status, 200);
  assert.equal(confirm.headers.get("set-cookie"), null);
  const html = await confirm.text();
  assert.match(html, /<form method="post" action="\/admin\/logout">/);
  const csrf = html.match(/name="csrf_token" value="([^"]+)"/)?.[1];
  assert.ok(csrf);
  assert.equal((await Array.fromAsync(t.kv.list({ prefix: ["sessions"] }))).length, 1);

  const logout = await t.fetch("/admin/logout", {
    method: "POST",
    headers: { ...HTML, cookie, origin: "http://localhost:8000" },
    body: new URLSearchParams({ csrf_token: csrf }),
  });
  assert.equal(logout.status, 200);
  assert.match(await logout.text(), /You are signed out/);
  const cleared = logout.headers.get("set-cookie") ?? "";
  assert.match(cleared, /^switchyard_session=; Max-Age=0; /);
  assert.match(cleared, /HttpOnly/);
  const sessions = await Array.fromAsync(t.kv.list({ prefix: ["sessions"] }));
  assert.equal(sessions.length, 0);

  const after = await t.fetch("/admin/groups", { headers: { ...HTML, cookie } });
  assert.equal(after.status, 302);
  assert.equal(after.headers.get("location"), "/admin/login?redirect=%2Fadmin%2Fgroups");
  await after.body?.cancel();
  const actions = (await listAuditEntries(t.kv)).map((e) => e.action);
  assert.deepEqual(actions, ["session.logout", "session.login"]);
});

Deno.test("sign-out: GET from this site, typed in or without Sec-Fetch-Site ends the session", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: "101" }));
  for (const site of ["same-origin", "none", undefined]) {
    const { cookie } = await signIn(t, fake, ADA);
    assert.ok(cookie);
    const headers: Record<string, string> = { ...HTML, cookie };
    if (site) headers["sec-fetch-site"] = site;
    const res = await t.fetch("/admin/logout", { headers });
    assert.equal(res.status, 303, String(site));
    assert.equal(res.headers.get("location"), "/admin/logout");
    assert.match(res.headers.get("set-cookie") ?? "", /^switchyard_session=; Max-Age=0; /);
    await res.body?.cancel();
    assert.equal((await Array.fromAsync(t.kv.list({ prefix: ["sessions"] }))).length, 0);
    const after = await t.fetch("/admin/groups", { headers: { ...HTML, cookie } });
    assert.equal(after.status, 302, "the old cookie no longer works");
    await after.body?.cancel();
  }
  const actions = (await listAuditEntries(t.kv)).map((e) => e.action);
  assert.equal(actions.filter((action) => action === "session.logout").length, 3);
});

Deno.test("sign-out: a GET from another site keeps the session and asks", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: "101" }));
  const { cookie } = await signIn(t, fake, ADA);
  assert.ok(cookie);
  for (const site of ["cross-site", "same-site"]) {
    const res = await t.fetch("/admin/logout", {
      headers: { ...HTML, cookie, "sec-fetch-site": site },
    });
    assert.equal(res.status, 200, site);
    assert.equal(res.headers.get("set-cookie"), null);
    assert.match(await res.text(), /<form method="post" action="\/admin\/logout">/);
  }
  assert.equal((await Array.fromAsync(t.kv.list({ prefix: ["sessions"] }))).length, 1);
});

Deno.test("sign-out: a cross-site POST or one without the form token keeps the session", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: "101" }));
  const { cookie } = await signIn(t, fake, ADA);
  assert.ok(cookie);
  const attempts: Record<string, string>[] = [
    { origin: "https://evil.example" },
    { "sec-fetch-site": "cross-site" },
    { origin: "http://localhost:8000" },
  ];
  for (const headers of attempts) {
    const res = await t.fetch("/admin/logout", {
      method: "POST",
      headers: { cookie, ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf_token: "x".repeat(43) }),
    });
    assert.equal(res.status, 403, JSON.stringify(headers));
    assert.equal(res.headers.get("set-cookie"), null);
    await res.body?.cancel();
  }
  assert.equal((await Array.fromAsync(t.kv.list({ prefix: ["sessions"] }))).length, 1);
  const still = await t.fetch("/admin/groups", { headers: { ...HTML, cookie } });
  assert.equal(still.status, 200);
  await still.body?.cancel();
});

Deno.test("the console guard: sign-in redirect for pages, 401 for API calls, login open", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const page = await t.fetch("/admin/logs?groupId=web", { headers: HTML });
  assert.equal(page.status, 302);
  assert.equal(
    page.headers.get("location"),
    "/admin/login?redirect=%2Fadmin%2Flogs%3FgroupId%3Dweb",
  );
  await page.body?.cancel();

  // Console API routes answer the same refusals as JSON (the framework picks the body format).
  const api = await t.fetch("/admin", { headers: { accept: "application/json" } });
  assert.equal(api.status, 401);
  assert.equal(api.headers.get("location"), null);
  assert.match(await api.text(), /Sign-in required/);

  const login = await t.fetch("/admin/login?redirect=/admin/logs", { headers: HTML });
  assert.equal(login.status, 302);
  assert.match(login.headers.get("location") ?? "", /\/login\/oauth\/authorize\?/);
  const logout = await t.fetch("/admin/logout", { headers: HTML });
  assert.equal(logout.status, 200);
  await logout.body?.cancel();
});

Deno.test("the console guard: a session without any group is sent to the forbidden notice", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const { cookie } = await signIn(t, fake, ADA, "/auth/github/install?installation_id=5");
  assert.ok(cookie);
  const page = await t.fetch("/admin/groups", { headers: { ...HTML, cookie } });
  assert.equal(page.status, 302);
  assert.equal(page.headers.get("location"), "/admin?error=forbidden");
  await page.body?.cancel();
  const api = await t.fetch("/admin/groups", { headers: { cookie } });
  assert.equal(api.status, 403);
  assert.match(await api.text(), /You have no access to the console/);
});

Deno.test("DEBUG_MODE=true bypasses authentication with super-admin access", async () => {
  await using t = await startTestApp({ DEBUG_MODE: "true" });
  const res = await t.fetch("/admin/groups", { headers: HTML });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  await using strict = await startTestApp({ DEBUG_MODE: "yes" });
  const refused = await strict.fetch("/admin/groups", { headers: { accept: "application/json" } });
  assert.equal(refused.status, 401);
  await refused.body?.cancel();
});

Deno.test("requireSameOrigin refuses cross-site writes and lets reads and non-browsers pass", () => {
  const config = testConfig({ BASE_URL: "https://relay.example" });
  const attempt = (method: string, headers: Record<string, string>) => {
    try {
      requireSameOrigin(new Request("http://internal:8000/x", { method, headers }), config);
      return "passed";
    } catch (error) {
      assert.ok(isHttpError(error));
      return error.status;
    }
  };
  assert.equal(attempt("POST", { origin: "https://relay.example" }), "passed");
  assert.equal(attempt("POST", { origin: "http://internal:8000" }), "passed");
  assert.equal(attempt("POST", { origin: "https://evil.example" }), 403);
  assert.equal(attempt("POST", { origin: "null" }), 403);
  assert.equal(attempt("PUT", { "sec-fetch-site": "cross-site" }), 403);
  assert.equal(attempt("DELETE", { "sec-fetch-site": "same-site" }), 403);
  assert.equal(attempt("POST", { "sec-fetch-site": "same-origin" }), "passed");
  assert.equal(attempt("POST", {}), "passed");
  assert.equal(attempt("GET", { origin: "https://evil.example" }), "passed");
});

Deno.test("principal: super admins by id or login; roles from group membership", async () => {
  await using kv = await openTestKv();
  const config = testConfig({ ADMIN_USER_IDS: "999,login:Root" });
  await putGroup(kv, {
    id: "web",
    name: "Web",
    members: [
      { userId: "1", login: "o", role: "owner" },
      { userId: "2", login: "a", role: "admin" },
      { userId: "3", login: "v", role: "viewer" },
    ],
  });
  await putGroup(kv, {
    id: "ops",
    name: "Ops",
    members: [{ userId: "1", login: "o", role: "viewer" }],
  });
  const session = { csrfToken: "x", sessionId: "s" };
  const as = (userId: string, login: string): Promise<Principal> =>
    principalFor(kv, config, { userId, login }, session);

  const owner = await as("1", "o");
  const admin = await as("2", "a");
  const viewer = await as("3", "v");
  const stranger = await as("4", "s");
  const rootById = await as("999", "x");
  const rootByLogin = await as("5", "ROOT");
  assert.deepEqual(Object.fromEntries(owner.roles), { web: "owner", ops: "viewer" });
  const table: [check: string, actual: boolean, expected: boolean][] = [
    ["owner isOwner web", isOwner(owner, "web"), true],
    ["owner canEditRoutes web", canEditRoutes(owner, "web"), true],
    ["owner canReadGroup web", canReadGroup(owner, "web"), true],
    ["owner isOwner ops", isOwner(owner, "ops"), false],
    ["owner canEditRoutes ops", canEditRoutes(owner, "ops"), false],
    ["owner canReadGroup ops", canReadGroup(owner, "ops"), true],
    ["admin isOwner web", isOwner(admin, "web"), false],
    ["admin canEditRoutes web", canEditRoutes(admin, "web"), true],
    ["admin canReadGroup ops", canReadGroup(admin, "ops"), false],
    ["viewer canReadGroup web", canReadGroup(viewer, "web"), true],
    ["viewer canEditRoutes web", canEditRoutes(viewer, "web"), false],
    ["viewer hasConsoleAccess", hasConsoleAccess(viewer), true],
    ["stranger hasConsoleAccess", hasConsoleAccess(stranger), false],
    ["stranger canReadGroup web", canReadGroup(stranger, "web"), false],
    ["super admin by id superAdmin", rootById.superAdmin, true],
    ["super admin by id isOwner ops", isOwner(rootById, "ops"), true],
    ["super admin by id hasConsoleAccess", hasConsoleAccess(rootById), true],
    ["super admin by login superAdmin", rootByLogin.superAdmin, true],
    ["super admin by login isOwner ops", isOwner(rootByLogin, "ops"), true],
    ["super admin by login hasConsoleAccess", hasConsoleAccess(rootByLogin), true],
  ];
  for (const [check, actual, expected] of table) assert.equal(actual, expected, check);
  const groups = [{ id: "web" }, { id: "ops" }, { id: "other" }];
  assert.deepEqual(readableGroups(admin, groups).map((g) => g.id), ["web"]);
  assert.equal(readableGroups(rootById, groups).length, 3);
});

Deno.test("principal: an all-digit ADMIN_USER_IDS entry is an id, never a login", async () => {
  await using kv = await openTestKv();
  const session = { csrfToken: "x", sessionId: "s" };
  const config = testConfig({ ADMIN_USER_IDS: "1" });
  const loginOne = await principalFor(kv, config, { userId: "555", login: "1" }, session);
  assert.equal(loginOne.superAdmin, false);
  assert.equal(hasConsoleAccess(loginOne), false);
  const idOne = await principalFor(kv, config, { userId: "1", login: "someone" }, session);
  assert.equal(idOne.superAdmin, true);

  const byLogin = testConfig({ ADMIN_USER_IDS: "login:octocat" });
  const octocat = await principalFor(kv, byLogin, { userId: "583231", login: "OctoCat" }, session);
  assert.equal(octocat.superAdmin, true);
});

Deno.test("principal: a group named like an object property is not readable by non-members", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const names = ["constructor", "hasownproperty", "tostring", "valueof", "isprototypeof"];
  for (const id of [...names, "web"]) {
    await putGroup(t.kv, {
      id,
      name: id,
      members: [{ userId: id === "web" ? "101" : "9", login: "x", role: "owner" }],
    });
  }
  const session = { csrfToken: "x", sessionId: "s" };
  const ada = await principalFor(t.kv, t.config, { userId: "101", login: "ada" }, session);
  for (const id of names) {
    assert.equal(canReadGroup(ada, id), false, id);
    assert.equal(canEditRoutes(ada, id), false, id);
    assert.equal(isOwner(ada, id), false, id);
  }
  assert.deepEqual(readableGroups(ada, names.map((id) => ({ id }))), []);

  const { cookie } = await signIn(t, fake, ADA);
  assert.ok(cookie);
  for (const id of names) {
    const routes = await t.fetch(`/admin/api/groups/${id}/routes`, { headers: { cookie } });
    assert.equal(routes.status, 403, id);
    await routes.body?.cancel();
  }
  const listed = await t.fetch("/admin/api/groups", { headers: { cookie } });
  assert.deepEqual((await listed.json()).groups.map((g: { id: string }) => g.id), ["web"]);
});

Deno.test("DEBUG_MODE answers only requests addressed to a loopback name (LAN peers, DNS rebinding)", async () => {
  await using t = await startTestApp({ DEBUG_MODE: "true" });
  const ask = (url: string, headers: Record<string, string> = {}) =>
    t.app.fetch(new Request(url, { headers: { accept: "application/json", ...headers } }));
  for (const url of ["http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"]) {
    const me = await ask(`${url}/admin/api/me`);
    assert.equal(me.status, 200, url);
    assert.equal((await me.json()).superAdmin, true);
  }
  for (
    const [url, headers] of [
      ["http://192.168.1.20:8000/admin/api/me", {}],
      ["http://rebound.example:8000/admin/api/me", {}],
      ["http://localhost:8000/admin/api/me", { host: "rebound.example:8000" }],
      ["http://localhost:8000/admin/api/groups", { host: "localhost.rebound.example" }],
    ] as const
  ) {
    const refused = await ask(url, headers);
    assert.equal(refused.status, 421, url);
    assert.deepEqual(await refused.json(), {
      error: "DEBUG_MODE answers only requests addressed to localhost, 127.0.0.1 or [::1]",
    });
  }
  const page = await ask("http://rebound.example:8000/admin/groups", HTML);
  assert.equal(page.status, 421);
  assert.match(await page.text(), /DEBUG_MODE answers only requests addressed to localhost/);
});
