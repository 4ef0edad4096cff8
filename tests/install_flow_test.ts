import assert from "node:assert/strict";
import { listAuditEntries } from "../lib/store/audit.ts";
import { getGroup, putGroup } from "../lib/store/groups.ts";
import { startTestApp, type TestApp } from "./_helpers.ts";
import {
  bindingCookieOf,
  type FakeGitHub,
  githubEnv,
  signIn,
  startFakeGitHub,
  stateOf,
} from "./fake_github.ts";

const ADA = { id: 101, login: "ada" };
const BOB = { id: 202, login: "bob" };
const INSTALLATION = { id: 4242, account: { id: 101, login: "ada", type: "User" } };
const HTML = { accept: "text/html" };
const ORIGIN = "http://localhost:8000";

/** An app against the fake, where Ada can see the installation. */
function setUp(fake: FakeGitHub): Promise<TestApp> {
  fake.installations.set(ADA.id, [INSTALLATION]);
  return startTestApp(githubEnv(fake));
}

/** The install page's CSRF token for a session. */
async function csrfTokenOf(t: TestApp, cookie: string, installationId = 4242): Promise<string> {
  const page = await t.fetch(`/auth/github/install?installation_id=${installationId}`, {
    headers: { ...HTML, cookie },
  });
  assert.equal(page.status, 200);
  const token = (await page.text()).match(/name="csrf_token" value="([^"]+)"/)?.[1];
  assert.ok(token);
  return token;
}

function bind(t: TestApp, cookie: string, fields: Record<string, string>, origin = ORIGIN) {
  return t.fetch("/auth/github/install/bind", {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

Deno.test("install page: signs in through GitHub and comes back to the installation", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  const start = await t.fetch("/auth/github/install?installation_id=4242&setup_action=install", {
    headers: HTML,
  });
  assert.equal(start.status, 302);
  const back = await t.fetch(
    `/auth/github/callback?code=${fake.issueCode(ADA)}&state=${stateOf(start)}`,
    { headers: { ...HTML, cookie: bindingCookieOf(start)! } },
  );
  assert.equal(back.status, 302);
  assert.equal(
    back.headers.get("location"),
    "/auth/github/install?installation_id=4242&setup_action=install",
  );
  const cookie = back.headers.get("set-cookie")!.split(";")[0];
  const page = await t.fetch(back.headers.get("location")!, { headers: { ...HTML, cookie } });
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /Installation 4242 on <strong>ada<\/strong>/);
  assert.match(html, /A new group <code>inst-4242<\/code>/);
  assert.match(html, /name="csrf_token" value="[\w-]{43}"/);
  const lookups = fake.requestsTo("/user/installations");
  assert.equal(lookups.length, 1);
  assert.match(lookups[0].headers.get("authorization") ?? "", /^Bearer ghu_/);
});

Deno.test("install page: an installation the user cannot see on GitHub is refused", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  const { cookie } = await signIn(t, fake, BOB, "/auth/github/install?installation_id=4242");
  const page = await t.fetch("/auth/github/install?installation_id=4242", {
    headers: { ...HTML, cookie: cookie! },
  });
  assert.equal(page.status, 403);
  assert.match(await page.text(), /Installation 4242 is not one you can access on GitHub/);
  const bad = await t.fetch("/auth/github/install?installation_id=12ab", {
    headers: { ...HTML, cookie: cookie! },
  });
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
});

Deno.test("bind: a new group inst-{id} owned by the installer, audited, then /admin?install=ok", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  const { cookie } = await signIn(t, fake, ADA, "/auth/github/install?installation_id=4242");
  const csrf = await csrfTokenOf(t, cookie!);
  const res = await bind(t, cookie!, {
    installation_id: "4242",
    group: "inst-4242",
    csrf_token: csrf,
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/admin?install=ok");
  assert.deepEqual(await getGroup(t.kv, "inst-4242"), {
    id: "inst-4242",
    name: "ada",
    members: [{ userId: "101", login: "ada", role: "owner" }],
    providers: ["github"],
    installationId: 4242,
    owners: ["ada"],
  });
  const [entry] = await listAuditEntries(t.kv, { groupId: "inst-4242" });
  assert.equal(entry.action, "installation.provision");
  assert.deepEqual(entry.actor, { userId: "101", login: "ada" });
  assert.equal(entry.target, "installation:4242");
  assert.equal(fake.requestsTo("/user/installations").length, 2);

  const overview = await t.fetch("/admin?install=ok", { headers: { ...HTML, cookie: cookie! } });
  assert.equal(overview.status, 200);
  await overview.body?.cancel();
});

Deno.test("bind: an existing group the user owns; not one they only administer", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  await putGroup(t.kv, {
    id: "web",
    name: "Web",
    members: [{ userId: "101", login: "ada", role: "owner" }],
  });
  await putGroup(t.kv, {
    id: "ops",
    name: "Ops",
    members: [{ userId: "101", login: "ada", role: "admin" }, {
      userId: "9",
      login: "z",
      role: "owner",
    }],
  });
  const { cookie } = await signIn(t, fake, ADA);
  const csrf = await csrfTokenOf(t, cookie!);
  const page = await (await t.fetch("/auth/github/install?installation_id=4242", {
    headers: { ...HTML, cookie: cookie! },
  })).text();
  assert.match(page, /value="web"/);
  assert.doesNotMatch(page, /value="ops"/);

  const refused = await bind(t, cookie!, {
    installation_id: "4242",
    group: "ops",
    csrf_token: csrf,
  });
  assert.equal(refused.status, 403);
  assert.deepEqual(await refused.json(), { error: "You are not an owner of group ops" });
  assert.equal((await getGroup(t.kv, "ops"))?.installationId, undefined);

  const missing = await bind(t, cookie!, {
    installation_id: "4242",
    group: "nope",
    csrf_token: csrf,
  });
  assert.equal(missing.status, 404);
  await missing.body?.cancel();

  const ok = await bind(t, cookie!, { installation_id: "4242", group: "web", csrf_token: csrf });
  assert.equal(ok.status, 303);
  assert.equal((await getGroup(t.kv, "web"))?.installationId, 4242);
  const audit = await listAuditEntries(t.kv, { groupId: "web" });
  assert.deepEqual(audit.map((e) => e.action), ["installation.bind"]);
});

Deno.test("bind: a forged installation id, a missing CSRF token or another origin is refused", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  const { cookie } = await signIn(t, fake, ADA, "/auth/github/install?installation_id=4242");
  const csrf = await csrfTokenOf(t, cookie!);

  const forged = await bind(t, cookie!, {
    installation_id: "999",
    group: "inst-999",
    csrf_token: csrf,
  });
  assert.equal(forged.status, 403);
  assert.match((await forged.json()).error, /Installation 999 is not one you can access/);

  const noToken = await bind(t, cookie!, { installation_id: "4242", group: "inst-4242" });
  assert.equal(noToken.status, 403);
  assert.match((await noToken.json()).error, /form token/);

  const wrongToken = await bind(t, cookie!, {
    installation_id: "4242",
    group: "inst-4242",
    csrf_token: "x".repeat(43),
  });
  assert.equal(wrongToken.status, 403);
  await wrongToken.body?.cancel();

  const crossSite = await bind(t, cookie!, {
    installation_id: "4242",
    group: "inst-4242",
    csrf_token: csrf,
  }, "https://evil.example");
  assert.equal(crossSite.status, 403);
  assert.deepEqual(await crossSite.json(), { error: "Cross-origin request refused" });

  const anonymous = await t.fetch("/auth/github/install/bind", {
    method: "POST",
    body: new URLSearchParams({ installation_id: "4242", group: "inst-4242" }),
  });
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();

  assert.equal(await getGroup(t.kv, "inst-999"), null);
  assert.equal(await getGroup(t.kv, "inst-4242"), null);
});

Deno.test("bind: the existing inst-{id} group of someone else cannot be taken over", async () => {
  await using fake = startFakeGitHub();
  fake.installations.set(BOB.id, [INSTALLATION]);
  await using t = await setUp(fake);
  await putGroup(t.kv, {
    id: "inst-4242",
    name: "ada",
    members: [{ userId: "101", login: "ada", role: "owner" }],
    installationId: 4242,
  });
  const { cookie } = await signIn(t, fake, BOB, "/auth/github/install?installation_id=4242");
  const csrf = await csrfTokenOf(t, cookie!);
  const res = await bind(t, cookie!, {
    installation_id: "4242",
    group: "inst-4242",
    csrf_token: csrf,
  });
  assert.equal(res.status, 403);
  await res.body?.cancel();
  assert.deepEqual((await getGroup(t.kv, "inst-4242"))?.members.map((m) => m.login), ["ada"]);
});

Deno.test("GitHub's install redirect without our state goes to the install page", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  const res = await t.fetch(
    "/auth/github/callback?code=abc&installation_id=4242&setup_action=install",
    { headers: HTML },
  );
  assert.equal(res.status, 302);
  assert.equal(
    res.headers.get("location"),
    "/auth/github/install?installation_id=4242&setup_action=install",
  );
  await res.body?.cancel();
  assert.equal(fake.requestsTo("/login/oauth/access_token").length, 0);
});

Deno.test("the install flow answers 503 without the GitHub App settings", async () => {
  await using fake = startFakeGitHub();
  const env = githubEnv(fake);
  delete env.GITHUB_APP_ID;
  delete env.GITHUB_APP_SLUG;
  await using t = await startTestApp(env);
  const res = await t.fetch("/auth/github/install?installation_id=1", { headers: HTML });
  assert.equal(res.status, 503);
  assert.match(await res.text(), /GitHub App is not configured/);
});
