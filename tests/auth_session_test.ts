import assert from "node:assert/strict";
import { requireSameOrigin } from "../lib/auth/access.ts";
import {
  canEditRoutes,
  canReadGroup,
  hasConsoleAccess,
  isOwner,
  type Principal,
  principalFor,
  readableGroups,
} from "../lib/auth/principal.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { isHttpError } from "../lib/fresh/http_error.ts";
import { listAuditEntries } from "../lib/store/audit.ts";
import { putGroup } from "../lib/store/groups.ts";
import { sessionKey } from "../lib/store/keys.ts";
import { SESSION_LIFETIME_MS } from "../lib/store/sessions.ts";
import { startTestApp, testConfig } from "./_helpers.ts";
import { githubEnv, signIn, startFakeGitHub } from "./fake_github.ts";

const ADA = { id: 101, login: "ada" };
const HTML = { accept: "text/html" };

Deno.test("the session cookie is HttpOnly, SameSite=Lax, Path=/, 7 days; Secure on https", async () => {
  await using fake = startFakeGitHub();
  for (
    const [baseUrl, secure] of [["https://relay.example", true], ["http://localhost:8000", false]]
  ) {
    await using t = await startTestApp(githubEnv(fake, {
      BASE_URL: String(baseUrl),
      ADMIN_USER_IDS: "ada",
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

Deno.test("GET /admin/logout deletes the session, clears the cookie and is audited", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: "ada" }));
  const { cookie } = await signIn(t, fake, ADA);
  assert.ok(cookie);
  const before = await t.fetch("/admin/groups", { headers: { ...HTML, cookie } });
  assert.equal(before.status, 200);
  await before.body?.cancel();

  const logout = await t.fetch("/admin/logout", { headers: { ...HTML, cookie } });
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
  await using kv = await Deno.openKv(":memory:");
  const config = testConfig({ ADMIN_USER_IDS: "999,Root" });
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
  assert.deepEqual(owner.roles, { web: "owner", ops: "viewer" });
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
