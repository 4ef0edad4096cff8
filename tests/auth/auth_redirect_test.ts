import assert from "node:assert/strict";
import { safeRedirectPath } from "../../lib/auth/redirect.ts";
import { startTestApp } from "../_helpers.ts";
import { githubEnv, startFakeGitHub, startSignIn, stateOf } from "../fake_github.ts";

const SAFE = [
  "/",
  "/admin",
  "/admin/logs?groupId=web&page=2",
  "/auth/github/install?installation_id=7",
  "/admin/events?q=fix%20login",
];

// Each value as it arrives in the `redirect` query parameter, after one decoding.
const UNSAFE = [
  "//x",
  "//evil.example/path",
  "https://x",
  "http://evil.example",
  "javascript:alert(1)",
  "/\\x",
  "/\\/evil.example",
  "\\\\evil.example",
  "/%2Fevil.example",
  "%2F%2Fevil.example",
  "/%5Cevil.example",
  "/%252F%252Fevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/%09/evil.example",
  "/%0A/evil.example",
  "/%00/admin",
  "/%2509/evil.example",
  " /admin",
  "admin",
  "",
];

Deno.test("safeRedirectPath keeps local paths", () => {
  for (const path of SAFE) assert.equal(safeRedirectPath(path), path);
});

Deno.test("safeRedirectPath turns every unsafe form into /", () => {
  for (const value of UNSAFE) assert.equal(safeRedirectPath(value), "/", JSON.stringify(value));
  assert.equal(safeRedirectPath(null), "/");
  assert.equal(safeRedirectPath(`/${"a".repeat(3000)}`), "/");
});

Deno.test("GET /auth/github stores only a safe redirect target (raw query forms)", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const cases: [string, string][] = [
    ["/admin/groups", "/admin/groups"],
    ["%2Fadmin%3Ftab%3D1", "/admin?tab=1"],
    ["//x", "/"],
    ["https://x", "/"],
    ["/%5Cx", "/"],
    ["/%2Fx", "/"],
    ["%2F%2Fx", "/"],
    ["/%252Fx", "/"],
    ["https%3A%2F%2Fx", "/"],
    ["/%09/x", "/"],
  ];
  for (const [raw, expected] of cases) {
    const start = await t.fetch(`/auth/github?flow=json&redirect=${raw}`);
    const state = stateOf(start);
    const res = await t.fetch(
      `/auth/github/callback?code=${fake.issueCode({ id: 1, login: "a" })}&state=${state}`,
    );
    assert.equal(res.status, 200, raw);
    assert.equal((await res.json()).redirectTo, expected, raw);
  }
});

Deno.test("the browser flow redirects only to the safe target", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: "1" }));
  const { state, cookie } = await startSignIn(t, "/admin/login?redirect=//evil.example");
  const res = await t.fetch(
    `/auth/github/callback?code=${fake.issueCode({ id: 1, login: "a" })}&state=${state}`,
    { headers: { accept: "text/html", cookie: cookie! } },
  );
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "/");
});
