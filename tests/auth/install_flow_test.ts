import assert from "node:assert/strict";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { startTestApp, type TestApp } from "../_helpers.ts";
import {
  bindingCookieOf,
  type FakeGitHub,
  githubEnv,
  signIn,
  startFakeGitHub,
  stateOf,
} from "../fake_github.ts";

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

Deno.test("install page: an organization member's install request (no installation yet) gets a page saying so", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  const res = await t.fetch("/auth/github/install?setup_action=request", { headers: HTML });
  assert.equal(res.status, 200);
  assert.match(await res.text(), /Installation requested/);
  assert.equal(fake.requestsTo("/").length, 0);
});

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

Deno.test("install page: GitHub failing answers 502 with a fixed text, GitHub's text only in the log", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  const { cookie } = await signIn(t, fake, ADA, "/auth/github/install?installation_id=4242");
  const upstream = "Server Error at lb-3.internal";
  fake.refusals.set("GET /user/installations", { status: 500, message: upstream });
  const page = await t.fetch("/auth/github/install?installation_id=4242", {
    headers: { ...HTML, cookie: cookie! },
  });
  assert.equal(page.status, 502);
  const html = await page.text();
  assert.match(html, /GitHub could not confirm your access to the installation; try again later/);
  assert.doesNotMatch(html, /lb-3/);
  const logged = t.lines.find((line) => line.message === "install flow: GitHub failed");
  assert.match(String(logged?.error), /Server Error at lb-3\.internal/);
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

/** The session's CSRF token, read from the sign-out confirmation form (shown to another site). */
async function sessionCsrfToken(t: TestApp, cookie: string): Promise<string> {
  const page = await t.fetch("/admin/logout", {
    headers: { ...HTML, cookie, "sec-fetch-site": "cross-site" },
  });
  const token = (await page.text()).match(/name="csrf_token" value="([^"]+)"/)?.[1];
  assert.ok(token);
  return token;
}

const ORG_INSTALLATION = {
  id: 5151,
  account: { id: 900, login: "octo-org", type: "Organization" },
};

Deno.test("install: seeing an organization's installation is not enough; its admins bind it", async () => {
  await using fake = startFakeGitHub();
  const CAROL = { id: 303, login: "carol" };
  for (const user of [ADA, BOB, CAROL]) fake.installations.set(user.id, [ORG_INSTALLATION]);
  fake.memberships.set(ADA.id, new Map([["octo-org", { role: "admin", state: "active" }]]));
  fake.memberships.set(BOB.id, new Map([["octo-org", { role: "member", state: "active" }]]));
  fake.memberships.set(CAROL.id, new Map([["octo-org", { role: "admin", state: "pending" }]]));
  await using t = await startTestApp(githubEnv(fake));

  for (const user of [BOB, CAROL, { id: 404, login: "dave" }]) {
    fake.installations.set(user.id, [ORG_INSTALLATION]);
    const { cookie } = await signIn(t, fake, user, "/auth/github/install?installation_id=5151");
    const page = await t.fetch("/auth/github/install?installation_id=5151", {
      headers: { ...HTML, cookie: cookie! },
    });
    assert.equal(page.status, 403, user.login);
    assert.match(
      await page.text(),
      /Only an admin of octo-org on GitHub may bind installation 5151/,
    );
    const res = await bind(t, cookie!, {
      installation_id: "5151",
      group: "inst-5151",
      csrf_token: await sessionCsrfToken(t, cookie!),
    });
    assert.equal(res.status, 403, user.login);
    assert.match((await res.json()).error, /Only an admin of octo-org/);
  }
  assert.equal(await getGroup(t.kv, "inst-5151"), null);
  const asked = fake.requestsTo("/user/memberships/orgs/octo-org");
  assert.ok(asked.length >= 6);

  const { cookie } = await signIn(t, fake, ADA, "/auth/github/install?installation_id=5151");
  const csrf = await csrfTokenOf(t, cookie!, 5151);
  const ok = await bind(t, cookie!, {
    installation_id: "5151",
    group: "inst-5151",
    csrf_token: csrf,
  });
  assert.equal(ok.status, 303);
  assert.deepEqual((await getGroup(t.kv, "inst-5151"))?.members, [
    { userId: "101", login: "ada", role: "owner" },
  ]);
});

Deno.test("bind: an installation bound to someone else's group is never bound a second time", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  const theirs = {
    id: "theirs",
    name: "Theirs",
    members: [{ userId: "9", login: "zed", role: "owner" as const }],
    installationId: 4242,
  };
  await putGroup(t.kv, theirs);
  await putGroup(t.kv, {
    id: "web",
    name: "Web",
    members: [{ userId: "101", login: "ada", role: "owner" }],
  });
  const { cookie } = await signIn(t, fake, ADA, "/auth/github/install?installation_id=4242");
  const page = await t.fetch("/auth/github/install?installation_id=4242", {
    headers: { ...HTML, cookie: cookie! },
  });
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /already bound to a group you do not own/);
  assert.doesNotMatch(html, /<form/);

  const csrf = await sessionCsrfToken(t, cookie!);
  for (const group of ["inst-4242", "web"]) {
    const res = await bind(t, cookie!, { installation_id: "4242", group, csrf_token: csrf });
    assert.equal(res.status, 409, group);
    assert.deepEqual(await res.json(), {
      error:
        "Installation 4242 is already bound to a group you do not own; only a super admin can bind it elsewhere",
    });
  }
  assert.equal(await getGroup(t.kv, "inst-4242"), null);
  assert.equal((await getGroup(t.kv, "web"))?.installationId, undefined);
  assert.deepEqual(await getGroup(t.kv, "theirs"), theirs);
  assert.deepEqual(await listAuditEntries(t.kv, { groupId: "web" }), []);
});

Deno.test("bind: the installer moves the binding between groups they own; one group stays bound", async () => {
  await using fake = startFakeGitHub();
  await using t = await setUp(fake);
  await putGroup(t.kv, {
    id: "web",
    name: "Web",
    members: [{ userId: "101", login: "ada", role: "owner" }],
  });
  const { cookie } = await signIn(t, fake, ADA, "/auth/github/install?installation_id=4242");
  const csrf = await csrfTokenOf(t, cookie!);
  const first = await bind(t, cookie!, {
    installation_id: "4242",
    group: "inst-4242",
    csrf_token: csrf,
  });
  assert.equal(first.status, 303);
  const moved = await bind(t, cookie!, { installation_id: "4242", group: "web", csrf_token: csrf });
  assert.equal(moved.status, 303);
  assert.equal((await getGroup(t.kv, "web"))?.installationId, 4242);
  assert.equal((await getGroup(t.kv, "inst-4242"))?.installationId, undefined);
  const bindings = async () =>
    (await listAuditEntries(t.kv)).filter((e) => e.groupId).map((e) => [e.action, e.groupId])
      .sort();
  assert.deepEqual(await bindings(), [
    ["installation.bind", "web"],
    ["installation.provision", "inst-4242"],
    ["installation.unbind", "inst-4242"],
  ]);
  const again = await bind(t, cookie!, { installation_id: "4242", group: "web", csrf_token: csrf });
  assert.equal(again.status, 303);
  assert.equal((await bindings()).length, 3, "binding it where it is changes nothing");
});

Deno.test("bind: the existing inst-{id} group of someone else cannot be taken over", async () => {
  await using fake = startFakeGitHub();
  fake.installations.set(BOB.id, [ORG_INSTALLATION]);
  fake.memberships.set(BOB.id, new Map([["octo-org", { role: "admin", state: "active" }]]));
  await using t = await setUp(fake);
  const squatter = {
    id: "inst-5151",
    name: "Squatter",
    members: [{ userId: "9", login: "zed", role: "owner" as const }],
  };
  await putGroup(t.kv, squatter);
  const { cookie } = await signIn(t, fake, BOB, "/auth/github/install?installation_id=5151");
  const page = await t.fetch("/auth/github/install?installation_id=5151", {
    headers: { ...HTML, cookie: cookie! },
  });
  assert.match(await page.text(), /There is no group you own to bind it to/);
  const res = await bind(t, cookie!, {
    installation_id: "5151",
    group: "inst-5151",
    csrf_token: await sessionCsrfToken(t, cookie!),
  });
  assert.equal(res.status, 403);
  assert.deepEqual(await res.json(), { error: "You are not an owner of group inst-5151" });
  assert.deepEqual(await getGroup(t.kv, "inst-5151"), squatter);
});

Deno.test("bind: a super admin may move an installation bound to another group", async () => {
  await using fake = startFakeGitHub();
  fake.installations.set(BOB.id, [INSTALLATION]);
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: String(BOB.id) }));
  await putGroup(t.kv, {
    id: "theirs",
    name: "Theirs",
    members: [{ userId: "9", login: "zed", role: "owner" }],
    installationId: 4242,
  });
  const { cookie } = await signIn(t, fake, BOB, "/auth/github/install?installation_id=4242");
  const csrf = await csrfTokenOf(t, cookie!);
  const res = await bind(t, cookie!, {
    installation_id: "4242",
    group: "inst-4242",
    csrf_token: csrf,
  });
  assert.equal(res.status, 303);
  assert.equal((await getGroup(t.kv, "inst-4242"))?.installationId, 4242);
  assert.equal((await getGroup(t.kv, "theirs"))?.installationId, undefined);
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
