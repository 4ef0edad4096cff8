import assert from "node:assert/strict";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { startChatLink } from "../../lib/auth/chat_link.ts";
import { getDiscordLink, getTelegramLink } from "../../lib/store/auth/links.ts";
import { OAUTH_STATE_LIFETIME_MS } from "../../lib/store/auth/oauth_states.ts";
import { issueOAuthState } from "../../lib/auth/oauth_state.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { getToken } from "../../lib/store/auth/tokens.ts";
import { startTestApp } from "../_helpers.ts";
import {
  completeLinkAsClient,
  completeLinkInBrowser,
  continueLink,
} from "../_chat_link_helpers.ts";
import {
  bindingCookieOf,
  CLIENT_ID,
  githubEnv,
  sessionCookieOf,
  signIn,
  startFakeGitHub,
  startSignIn,
  stateOf,
} from "../fake_github.ts";

const ADA = { id: 101, login: "ada" };
const BOB = { id: 202, login: "bob" };

async function callback(
  t: { fetch(path: string, init?: RequestInit): Promise<Response> },
  query: Record<string, string>,
  accept = "application/json",
  cookie: string | null = null,
) {
  return await t.fetch(`/auth/github/callback?${new URLSearchParams(query)}`, {
    headers: { accept, ...(cookie ? { cookie } : {}) },
  });
}

Deno.test("GET /auth/github redirects to GitHub's authorize address with a fresh state", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { BASE_URL: "https://relay.example" }));
  const res = await t.fetch("/auth/github?redirect=/admin/groups");
  assert.equal(res.status, 302);
  const location = new URL(res.headers.get("location")!);
  assert.equal(location.origin + location.pathname, `${fake.url}/login/oauth/authorize`);
  assert.equal(location.searchParams.get("client_id"), CLIENT_ID);
  assert.equal(
    location.searchParams.get("redirect_uri"),
    "https://relay.example/auth/github/callback",
  );
  const state = location.searchParams.get("state")!;
  assert.match(state, /^[\w-]+\.[\w-]{43}$/, "a signed state");
  const second = stateOf(await t.fetch("/auth/github"));
  assert.notEqual(second, state);
});

Deno.test("GET /auth/github answers 503 while GitHub sign-in is not configured", async () => {
  await using t = await startTestApp();
  const res = await t.fetch("/auth/github");
  assert.equal(res.status, 503);
  assert.deepEqual(await res.json(), { error: "GitHub sign-in is not configured" });
});

Deno.test("browser flow: a super admin gets a session and goes to the redirect target", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: "login:ADA" }));
  const { res, cookie } = await signIn(t, fake, ADA, "/auth/github?redirect=/admin/logs");
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "/admin/logs");
  assert.ok(cookie);
  const page = await t.fetch("/admin/logs", { headers: { cookie, accept: "text/html" } });
  assert.equal(page.status, 200);
  await page.body?.cancel();
  const token = await getToken(t.kv, "101");
  assert.equal(token?.login, "ada");
  const audit = await listAuditEntries(t.kv);
  assert.deepEqual(audit.map((e) => [e.action, e.actor]), [
    ["session.login", { userId: "101", login: "ada" }],
  ]);
});

Deno.test("browser flow: a group member gets in; anyone else goes to /admin?error=forbidden", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  await putGroup(t.kv, {
    id: "web",
    name: "Web",
    members: [{ userId: "101", login: "ada", role: "viewer" }],
  });
  const member = await signIn(t, fake, ADA);
  assert.equal(member.res.headers.get("location"), "/admin");
  assert.ok(member.cookie);

  const stranger = await signIn(t, fake, BOB);
  assert.equal(stranger.res.status, 302);
  assert.equal(stranger.res.headers.get("location"), "/admin?error=forbidden");
  assert.equal(stranger.cookie, null);
  const notice = await t.fetch("/admin?error=forbidden", { headers: { accept: "text/html" } });
  assert.equal(notice.status, 200);
  assert.match(await notice.text(), /No access to the console/);
});

Deno.test("JSON flow: ?flow=json or Accept: application/json answers the identity", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  for (
    const init of [{ path: "/auth/github?flow=json&redirect=/x", accept: "text/html" }, {
      path: "/auth/github?redirect=/x",
      accept: "application/json",
    }]
  ) {
    const state = stateOf(await t.fetch(init.path, { headers: { accept: init.accept } }));
    const res = await callback(t, { code: fake.issueCode(BOB), state }, init.accept);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("set-cookie"), null);
    assert.deepEqual(await res.json(), { userId: "202", login: "bob", redirectTo: "/x" });
  }
  assert.ok(await getToken(t.kv, "202"));
  const audit = await listAuditEntries(t.kv);
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.actor, entry.detail]),
    [1, 2].map(() => ["session.login", { userId: "202", login: "bob" }, { flow: "json" }]),
    "each JSON sign-in is audited",
  );
});

Deno.test("Discord link: linked after both confirmations in the browser, or as a JSON client with its cookie", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const pageUrl = await startChatLink(t.kv, t.config, {
    platform: "discord",
    chatUserId: "80351110224678912",
    username: "ada_discord",
  });
  assert.equal(new URL(pageUrl).pathname, "/discord/link");
  const res = await completeLinkAsClient(t, pageUrl, fake.issueCode(ADA));
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    ok: true,
    discordUserId: "80351110224678912",
    login: "ada",
  });
  const link = await getDiscordLink(t.kv, "80351110224678912");
  assert.deepEqual({ ...link, linkedAt: 0 }, {
    discordUserId: "80351110224678912",
    userId: "101",
    login: "ada",
    linkedAt: 0,
  });

  const again = await startChatLink(t.kv, t.config, {
    platform: "discord",
    chatUserId: "42",
    username: "bob.dev",
  });
  const page = await completeLinkInBrowser(t, again, fake.issueCode(BOB));
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Discord account now acts as the GitHub account <strong>bob/);
  assert.equal((await getDiscordLink(t.kv, "42"))?.login, "bob");
});

for (const platform of ["discord", "telegram"] as const) {
  Deno.test(`${platform} link: the callback with the link's state and no cookie links nothing`, async () => {
    await using fake = startFakeGitHub();
    await using t = await startTestApp(githubEnv(fake));
    const chatUserId = "31337";
    const pageUrl = await startChatLink(t.kv, t.config, {
      platform,
      chatUserId,
      username: "attacker_1",
      telegramChatId: chatUserId,
    });
    // The attacker continues in their own browser and hands GitHub's address on to a victim.
    const { state } = await continueLink(t, pageUrl);
    for (const accept of ["text/html", "application/json"]) {
      const res = await callback(t, { code: fake.issueCode(ADA), state }, accept);
      assert.equal(res.status, 403, accept);
      assert.match(await res.text(), /not started in this browser/);
    }
    const victimCookie = bindingCookieOf(await t.fetch("/auth/github")) ?? "";
    const other = await callback(
      t,
      { code: fake.issueCode(ADA), state },
      "text/html",
      victimCookie,
    );
    assert.equal(other.status, 403, "another browser's binding");
    await other.body?.cancel();
    const linked = platform === "discord"
      ? await getDiscordLink(t.kv, chatUserId)
      : await getTelegramLink(t.kv, chatUserId);
    assert.equal(linked, null);
    assert.equal(fake.requestsTo("/login/oauth/access_token").length, 0, "no code was used");
  });
}

Deno.test("chat link: the browser page links only on the second same-origin confirmation", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const pageUrl = await startChatLink(t.kv, t.config, {
    platform: "discord",
    chatUserId: "77",
    username: "grace",
  });
  const { state, cookie } = await continueLink(t, pageUrl);
  const pair = await callback(t, { code: fake.issueCode(ADA), state }, "text/html", cookie);
  assert.equal(pair.status, 200);
  const html = await pair.text();
  assert.match(html, /Link these accounts\?/);
  assert.match(html, />@grace</);
  assert.match(html, />ada</);
  assert.equal(await getDiscordLink(t.kv, "77"), null, "nothing linked before the confirmation");
  const token = html.match(/name="token" value="([^"]+)"/)![1];
  const csrf = html.match(/name="csrf_token" value="([^"]+)"/)![1];
  const form = { token, csrf_token: csrf, intent: "confirm" };
  const post = (headers: Record<string, string>, body = form) =>
    t.fetch("/discord/link", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(body),
    });
  const refusals: [Record<string, string>, typeof form][] = [
    [{ cookie, origin: "https://evil.example" }, form],
    [{ cookie, "sec-fetch-site": "cross-site" }, form],
    [{ origin: "http://localhost" }, form],
    [{ cookie, origin: "http://localhost" }, { ...form, csrf_token: "x".repeat(43) }],
    [{ cookie: bindingCookieOf(await t.fetch("/auth/github"))!, origin: "http://localhost" }, form],
  ];
  for (const [headers, body] of refusals) {
    const res = await post(headers, body);
    assert.equal(res.status, 403, JSON.stringify(headers));
    await res.body?.cancel();
  }
  assert.equal(await getDiscordLink(t.kv, "77"), null);
  const ok = await post({ cookie, origin: "http://localhost" });
  assert.equal(ok.status, 200);
  assert.match(await ok.text(), /Accounts linked/);
  assert.equal((await getDiscordLink(t.kv, "77"))?.login, "ada");
  const replay = await post({ cookie, origin: "http://localhost" });
  assert.equal(replay.status, 400, "the request is used up");
  await replay.body?.cancel();
});

Deno.test("chat link: a newer /gh link replaces the pending request, whose links stop working", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const start = { platform: "telegram" as const, chatUserId: "5", telegramChatId: "5" };
  const first = await startChatLink(t.kv, t.config, start);
  const { state, cookie } = await continueLink(t, first);
  const second = await startChatLink(t.kv, t.config, start);
  assert.equal((await Array.fromAsync(t.kv.list({ prefix: ["link_requests"] }))).length, 1);
  const old = new URL(first);
  const stale = await t.fetch(`${old.pathname}${old.search}`, { headers: { accept: "text/html" } });
  assert.equal(stale.status, 404);
  assert.match(await stale.text(), /Link not valid/);
  const late = await callback(t, { code: fake.issueCode(ADA), state }, "application/json", cookie);
  assert.equal(late.status, 400);
  assert.match((await late.json()).error, /replaced by a newer one/);
  const res = await completeLinkAsClient(t, second, fake.issueCode(ADA));
  assert.deepEqual(await res.json(), { ok: true, telegramUserId: "5", login: "ada" });
});

Deno.test("sign-in starts write nothing: anonymous GET /auth/github leaves the store's keys as they were", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const keys = async () => (await Array.fromAsync(t.kv.list({ prefix: [] }))).map((e) => e.key);
  const first = await t.fetch("/auth/github");
  await first.body?.cancel();
  assert.deepEqual(await keys(), [["instance_secret"]], "at most the instance's signing key");
  const before = await keys();
  for (let i = 0; i < 200; i++) {
    const res = await t.fetch(`/auth/github?redirect=/admin/${i}`, {
      headers: { accept: i % 2 ? "application/json" : "text/html" },
    });
    assert.equal(res.status, 302);
    await res.body?.cancel();
  }
  assert.deepEqual(await keys(), before);
  // A state still works once: the callback writes the one mark that refuses its replay.
  const state = stateOf(await t.fetch("/auth/github?flow=json"));
  const used = await callback(t, { code: fake.issueCode(ADA), state });
  assert.equal(used.status, 200);
  await used.body?.cancel();
  const marks = await Array.fromAsync(t.kv.list({ prefix: ["oauth_states_used"] }));
  assert.equal(marks.length, 1);
});

Deno.test("Telegram link: linked, and a confirmation goes to the pending chat", async () => {
  await using fake = startFakeGitHub();
  const sent: { path: string; body: Record<string, unknown> }[] = [];
  await using telegram = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (req) => {
      sent.push({ path: new URL(req.url).pathname, body: await req.json() });
      return Response.json({ ok: true, result: { message_id: 1 } });
    },
  );
  await using t = await startTestApp(githubEnv(fake, {
    TELEGRAM_BOT_TOKEN: "123456:ABC-def",
    TELEGRAM_API_URL: `http://127.0.0.1:${telegram.addr.port}`,
  }));
  const pageUrl = await startChatLink(t.kv, t.config, {
    platform: "telegram",
    chatUserId: "777",
    telegramChatId: "-100123",
  });
  const res = await completeLinkAsClient(t, pageUrl, fake.issueCode(ADA));
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { ok: true, telegramUserId: "777", login: "ada" });
  assert.equal((await getTelegramLink(t.kv, "777"))?.userId, "101");
  assert.equal(sent.length, 1);
  assert.equal(sent[0].path, "/bot123456:ABC-def/sendMessage");
  assert.equal(sent[0].body.chat_id, "-100123");
  assert.match(String(sent[0].body.text), /GitHub account ada/);
});

Deno.test("callback: a reused, expired, unknown or missing state answers 400", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const state = stateOf(await t.fetch("/auth/github?flow=json"));
  const first = await callback(t, { code: fake.issueCode(ADA), state });
  assert.equal(first.status, 200);
  await first.body?.cancel();

  const reused = await callback(t, { code: fake.issueCode(ADA), state });
  assert.equal(reused.status, 400);
  assert.match((await reused.json()).error, /unknown or was already used/);

  const old = await issueOAuthState(
    t.kv,
    { kind: "json", redirectTo: "/" },
    undefined,
    Date.now() - OAUTH_STATE_LIFETIME_MS - 1000,
  );
  const expired = await callback(t, { code: fake.issueCode(ADA), state: old });
  assert.equal(expired.status, 400);
  assert.match((await expired.json()).error, /has expired/);
  const forged = `${old.split(".")[0]}.${"A".repeat(43)}`;
  const forgedAnswer = await callback(t, { code: fake.issueCode(ADA), state: forged });
  assert.equal(forgedAnswer.status, 400);
  assert.match((await forgedAnswer.json()).error, /unknown or was already used/);

  const unknown = await callback(t, { code: "c", state: "a".repeat(32) });
  assert.equal(unknown.status, 400);
  assert.match((await unknown.json()).error, /unknown/);

  const missing = await callback(t, { code: "c" });
  assert.equal(missing.status, 400);
  assert.deepEqual(await missing.json(), { error: "Missing or malformed state" });

  const page = await callback(t, { code: "c", state: "b".repeat(32) }, "text/html");
  assert.equal(page.status, 400);
  assert.match(page.headers.get("content-type") ?? "", /text\/html/);
  assert.match(await page.text(), /unknown or was already used/);
  assert.equal(fake.requestsTo("/login/oauth/access_token").length, 1);
});

Deno.test("callback: a refused code or a cancelled sign-in answers 400, GitHub down 502", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const first = await startSignIn(t, "/auth/github");
  const bad = await callback(t, { code: "nope", state: first.state }, "text/html", first.cookie);
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /The code passed is incorrect or expired/);

  const second = await startSignIn(t, "/auth/github");
  const cancelled = await callback(
    t,
    {
      error: "access_denied",
      error_description: "The user has denied your application access.",
      state: second.state,
    },
    "text/html",
    second.cookie,
  );
  assert.equal(cancelled.status, 400);
  assert.match(await cancelled.text(), /denied your application access/);

  const down = startFakeGitHub();
  const closedUrl = down.url;
  await down[Symbol.asyncDispose]();
  await using offline = await startTestApp(
    githubEnv(fake, { GITHUB_URL: closedUrl, GITHUB_API_URL: closedUrl }),
  );
  const unreachable = await callback(offline, {
    code: "c",
    state: stateOf(await offline.fetch("/auth/github?flow=json")),
  });
  assert.equal(unreachable.status, 502);
  assert.deepEqual(await unreachable.json(), { error: "GitHub is unreachable; try again later" });
  assert.ok(offline.lines.some((line) => line.message === "sign-in: GitHub unreachable"));
});

Deno.test("callback: the exchange sends the client credentials and the callback address", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const state = stateOf(await t.fetch("/auth/github?flow=json"));
  const code = fake.issueCode(ADA);
  const res = await callback(t, { code, state });
  await res.body?.cancel();
  const [exchange] = fake.requestsTo("/login/oauth/access_token");
  assert.deepEqual(exchange.body, {
    client_id: CLIENT_ID,
    client_secret: "fake-client-secret",
    code,
    redirect_uri: "http://localhost:8000/auth/github/callback",
  });
  assert.equal(exchange.headers.get("accept"), "application/json");
  const [user] = fake.requestsTo("/user");
  assert.equal(user.headers.get("x-github-api-version"), "2022-11-28");
  assert.equal(sessionCookieOf(res), null);
});

Deno.test("tokens: a GitHub App token keeps its expiry and refresh token; an OAuth App token has none", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const before = Date.now();
  const app = await callback(t, {
    code: fake.issueCode(ADA),
    state: stateOf(await t.fetch("/auth/github?flow=json")),
  });
  await app.body?.cancel();
  const expiring = await getToken(t.kv, "101");
  const after = Date.now();
  assert.ok(expiring, "the token is stored");
  assert.ok(expiring.expiresAt !== null, "it has an expiry");
  assert.ok(expiring.staleAt !== null, "it has a refresh time");
  assert.match(expiring.refreshToken ?? "", /^ghr_/);
  assert.ok(expiring.expiresAt >= before + 28_800_000, "expires 8 hours after it was issued");
  assert.ok(expiring.expiresAt <= after + 28_800_000, "expires 8 hours after it was issued");
  assert.ok(expiring.staleAt < expiring.expiresAt);

  fake.tokenStyle = {};
  const oauthApp = await callback(t, {
    code: fake.issueCode(BOB),
    state: stateOf(await t.fetch("/auth/github?flow=json")),
  });
  await oauthApp.body?.cancel();
  const lasting = await getToken(t.kv, "202");
  assert.equal(lasting?.expiresAt, null);
  assert.equal(lasting?.staleAt, null);
  assert.equal(lasting?.refreshToken, undefined);
});

Deno.test("login CSRF: an attacker's callback link does not sign another browser in", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: "202" }));
  // The attacker starts a sign-in in their own browser and stops at GitHub's redirect back.
  const attacker = await startSignIn(t, "/admin/login");
  assert.ok(attacker.cookie);
  const link = `/auth/github/callback?code=${fake.issueCode(BOB)}&state=${attacker.state}`;

  // The victim's browser: no binding cookie at all, or its own from a sign-in it started.
  const victim = await startSignIn(t, "/admin/login");
  for (const cookie of [null, victim.cookie]) {
    const res = await t.fetch(link, {
      headers: { accept: "text/html", ...(cookie ? { cookie } : {}) },
    });
    assert.equal(res.status, 403);
    assert.equal(sessionCookieOf(res), null);
    assert.match(await res.text(), /not started in this browser/);
  }
  const api = await t.fetch(link, { headers: { accept: "application/json" } });
  assert.equal(api.status, 403);
  assert.match((await api.json()).error, /start the sign-in again here/);
  assert.equal(fake.requestsTo("/login/oauth/access_token").length, 0, "the code is never used");
  assert.equal((await Array.fromAsync(t.kv.list({ prefix: ["sessions"] }))).length, 0);

  // The state was not used up: it still works in the browser that started it.
  const own = await t.fetch(link, { headers: { accept: "text/html", cookie: attacker.cookie } });
  assert.equal(own.status, 302);
  assert.ok(sessionCookieOf(own));
});

Deno.test("login CSRF: the binding cookie is __Host- on https, a plain name on http://localhost", async () => {
  await using fake = startFakeGitHub();
  for (
    const [baseUrl, expected] of [
      ["https://relay.example", /^__Host-switchyard_oauth=[\w-]{43}$/],
      ["http://localhost:8000", /^switchyard_oauth=[\w-]{43}$/],
    ] as const
  ) {
    await using t = await startTestApp(githubEnv(fake, { BASE_URL: baseUrl }));
    const start = await t.fetch("/admin/login", { headers: { accept: "text/html" } });
    const header = start.headers.getSetCookie()[0];
    const [pair, ...attributes] = header.split("; ");
    assert.match(pair, expected);
    assert.deepEqual(
      new Set(attributes),
      new Set([
        "Max-Age=600",
        "Path=/",
        "HttpOnly",
        "SameSite=Lax",
        ...(baseUrl.startsWith("https") ? ["Secure"] : []),
      ]),
    );
    // A second sign-in from the same browser keeps the value, so both tabs complete.
    const again = await t.fetch("/auth/github/install?installation_id=7", {
      headers: { accept: "text/html", cookie: pair },
    });
    assert.equal(bindingCookieOf(again), pair);
    // The JSON flow starts no session, so it is not bound to a browser.
    const json = await t.fetch("/auth/github?flow=json");
    assert.equal(bindingCookieOf(json), null);
  }
});
