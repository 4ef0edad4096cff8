import assert from "node:assert/strict";
import { gitHubAsUser } from "../../lib/auth/github_caller.ts";
import { repoPath } from "../../lib/github/client.ts";
import { getToken, saveToken } from "../../lib/store/auth/tokens.ts";
import { startTestApp, type TestApp } from "../_helpers.ts";
import {
  type FakeGitHub,
  githubEnv,
  type IssuedPair,
  signIn,
  startFakeGitHub,
} from "../fake_github.ts";

const GRACE = { id: 7, login: "grace" };
const HOUR = 3_600_000;

/** Stores a token for Grace as a completed sign-in would, and returns it. */
async function signedInToken(t: TestApp, fake: FakeGitHub): Promise<IssuedPair> {
  const pair = fake.issueTokens(GRACE);
  await saveToken(t.kv, {
    userId: "7",
    login: "grace",
    accessToken: pair.accessToken,
    expiresAt: Date.now() + 8 * HOUR,
    refreshToken: pair.refreshToken,
    refreshTokenExpiresAt: Date.now() + 4000 * HOUR,
  });
  return pair;
}

function post(t: TestApp, path: string, body: unknown, authorization?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (authorization !== undefined) headers.authorization = authorization;
  return t.fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
}

const COMMENT = { owner: "octo-org", repo: "switchyard", issueNumber: 12, body: "Looks good" };

Deno.test("POST /api/comment comments as the bearer's user and answers 201 { ok, id, url }", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const { accessToken } = await signedInToken(t, fake);
  const res = await post(t, "/api/comment", COMMENT, `Bearer ${accessToken}`);
  assert.equal(res.status, 201);
  const body = await res.json();
  assert.equal(body.ok, true);
  assert.equal(typeof body.id, "number");
  assert.equal(
    body.url,
    `https://github.com/octo-org/switchyard/issues/12#issuecomment-${body.id}`,
  );
  const [call] = fake.requestsTo("/repos/");
  assert.equal(call.method, "POST");
  assert.equal(call.path, "/repos/octo-org/switchyard/issues/12/comments");
  assert.deepEqual(call.body, { body: "Looks good" });
  assert.equal(call.headers.get("authorization"), `Bearer ${accessToken}`);
  assert.equal(call.headers.get("accept"), "application/vnd.github+json");
  assert.equal(call.headers.get("x-github-api-version"), "2022-11-28");
  assert.equal(call.headers.get("user-agent"), "Switchyard");
});

Deno.test("POST /api/merge, /api/close and /api/react answer their documented shapes", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const auth = `Bearer ${(await signedInToken(t, fake)).accessToken}`;
  const sha = "b".repeat(40);

  const merge = await post(t, "/api/merge", {
    owner: "o",
    repo: "r",
    pullNumber: 3,
    mergeMethod: "squash",
    sha,
  }, auth);
  assert.equal(merge.status, 200);
  assert.deepEqual(await merge.json(), { ok: true, sha: "a".repeat(40) });

  const close = await post(t, "/api/close", { owner: "o", repo: "r", pullNumber: 4 }, auth);
  assert.equal(close.status, 200);
  assert.deepEqual(await close.json(), { ok: true });

  const react = await post(t, "/api/react", {
    owner: "o",
    repo: "r",
    issueNumber: 5,
    content: "+1",
  }, auth);
  assert.equal(react.status, 200);
  const reaction = await react.json();
  assert.equal(reaction.ok, true);
  assert.equal(typeof reaction.id, "number");

  assert.deepEqual(
    fake.requestsTo("/repos/").map((r) => [r.method, r.path, r.body]),
    [
      ["PUT", "/repos/o/r/pulls/3/merge", { merge_method: "squash", sha }],
      ["PATCH", "/repos/o/r/pulls/4", { state: "closed" }],
      ["POST", "/repos/o/r/issues/5/reactions", { content: "+1" }],
    ],
  );
});

Deno.test("bearer: missing or another scheme 401 with a challenge, malformed 400, unknown 401", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  await signedInToken(t, fake);

  const missing = await post(t, "/api/comment", COMMENT);
  assert.equal(missing.status, 401);
  assert.equal(missing.headers.get("www-authenticate"), 'Bearer realm="switchyard"');
  assert.deepEqual(await missing.json(), { error: "Missing Authorization header" });

  for (const header of ["Basic dXNlcjpwdw==", "ghu_abc", "Token ghu_abc"]) {
    const otherScheme = await post(t, "/api/comment", COMMENT, header);
    assert.equal(otherScheme.status, 401, header);
    assert.equal(otherScheme.headers.get("www-authenticate"), 'Bearer realm="switchyard"');
    assert.deepEqual(await otherScheme.json(), { error: "Authorization must be Bearer <token>" });
  }

  for (const header of ["Bearer", "Bearer two words", "Bearer ghu_a,b"]) {
    const malformed = await post(t, "/api/comment", COMMENT, header);
    assert.equal(malformed.status, 400, header);
    assert.match(malformed.headers.get("www-authenticate") ?? "", /error="invalid_request"/);
    assert.match((await malformed.json()).error, /Malformed Authorization header/);
  }

  for (const token of ["ghu_never_issued", `ghu_${"a".repeat(600)}`]) {
    const unknown = await post(t, "/api/comment", COMMENT, `Bearer ${token}`);
    assert.equal(unknown.status, 401);
    assert.match(unknown.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
    assert.deepEqual(await unknown.json(), { error: "Invalid or revoked token" });
  }
  assert.equal(fake.requestsTo("/repos/").length, 0);
});

Deno.test("a method the action API does not answer is 405 before any authentication", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  for (const path of ["/api/comment", "/api/merge", "/api/close", "/api/react"]) {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await t.fetch(path, { method });
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(res.headers.get("allow"), "POST");
      assert.deepEqual(await res.json(), { error: "Method not allowed" });
    }
  }
});

Deno.test("a GitHub success without what the action answers is GitHub failing: 502, never 500", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const auth = `Bearer ${(await signedInToken(t, fake)).accessToken}`;
  const calls: [string, string, unknown][] = [
    ["POST /repos/o/r/issues/1/comments", "/api/comment", {
      ...COMMENT,
      owner: "o",
      repo: "r",
      issueNumber: 1,
    }],
    ["PUT /repos/o/r/pulls/1/merge", "/api/merge", { owner: "o", repo: "r", pullNumber: 1 }],
    ["POST /repos/o/r/issues/1/reactions", "/api/react", {
      owner: "o",
      repo: "r",
      issueNumber: 1,
      content: "eyes",
    }],
  ];
  const odd: [number, string][] = [
    [200, ""],
    [204, ""],
    [201, "null"],
    [200, "{}"],
    [200, "[1]"],
    [200, '"ok"'],
    [200, '{"id":"x","html_url":5,"sha":7}'],
  ];
  for (const [route, path, body] of calls) {
    for (const [status, text] of odd) {
      fake.answers.set(route, { status, text });
      const res = await post(t, path, body, auth);
      assert.equal(res.status, 502, `${path} answered ${status} ${text}`);
      assert.deepEqual(await res.json(), {
        error: "GitHub failed to carry out the action; try again later",
      });
    }
  }
});

Deno.test("a GitHub refusal whose message is not text answers its status text", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const auth = `Bearer ${(await signedInToken(t, fake)).accessToken}`;
  fake.answers.set("PUT /repos/o/r/pulls/9/merge", {
    status: 409,
    text: '{"message":{"nested":true}}',
  });
  const res = await post(t, "/api/merge", { owner: "o", repo: "r", pullNumber: 9 }, auth);
  assert.equal(res.status, 409);
  assert.deepEqual(await res.json(), { error: "409 Conflict" });
});

Deno.test("a body that fails validation answers 400 naming the field", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const auth = `Bearer ${(await signedInToken(t, fake)).accessToken}`;
  const cases: [string, unknown, RegExp][] = [
    ["/api/comment", { ...COMMENT, issueNumber: "12" }, /^Invalid issueNumber:/],
    ["/api/comment", { ...COMMENT, body: "" }, /^Invalid body:/],
    ["/api/comment", { ...COMMENT, owner: undefined }, /^Invalid owner:/],
    ["/api/merge", { owner: "o", repo: "r", pullNumber: 1, mergeMethod: "ff" }, /mergeMethod/],
    ["/api/merge", { owner: "o", repo: "r", pullNumber: 1, sha: "abc" }, /^Invalid sha:/],
    ["/api/close", { owner: "o", repo: "r", pullNumber: -1 }, /^Invalid pullNumber:/],
    ["/api/react", { owner: "o", repo: "r", issueNumber: 1, content: "tada" }, /content/],
    ["/api/react", { owner: "o", repo: "../x", issueNumber: 1, content: "eyes" }, /^Invalid repo:/],
  ];
  for (const [path, body, error] of cases) {
    const res = await post(t, path, body, auth);
    assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}`);
    assert.match((await res.json()).error, error);
  }
  const notJson = await t.fetch("/api/close", {
    method: "POST",
    headers: { authorization: auth },
    body: "{nope",
  });
  assert.equal(notJson.status, 400);
  assert.deepEqual(await notJson.json(), { error: "Invalid JSON" });
  assert.equal(fake.requestsTo("/repos/").length, 0);
});

Deno.test("GitHub's refusals keep their status and message", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const auth = `Bearer ${(await signedInToken(t, fake)).accessToken}`;
  const pull = { owner: "o", repo: "r", pullNumber: 9 };
  const refusals: [number, string][] = [
    [404, "Not Found"],
    [405, "Pull Request is not mergeable"],
    [409, "Head branch was modified. Review and try the merge again."],
    [422, "Validation Failed"],
    [403, "Resource not accessible by integration"],
  ];
  for (const [status, message] of refusals) {
    fake.refusals.set("PUT /repos/o/r/pulls/9/merge", { status, message });
    const res = await post(t, "/api/merge", pull, auth);
    assert.equal(res.status, status);
    assert.deepEqual(await res.json(), { error: message });
  }
});

Deno.test("GitHub failing (5xx) answers 502 with a fixed text; GitHub's text goes to the log", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const auth = `Bearer ${(await signedInToken(t, fake)).accessToken}`;
  const pull = { owner: "o", repo: "r", pullNumber: 9 };
  const upstream = "Unavailable: db-7.internal.github.net timed out";
  fake.refusals.set("PUT /repos/o/r/pulls/9/merge", { status: 503, message: upstream });
  const failing = await post(t, "/api/merge", pull, auth);
  assert.equal(failing.status, 502);
  assert.deepEqual(await failing.json(), {
    error: "GitHub failed to carry out the action; try again later",
  });
  const logged = t.lines.find((line) => line.message === "action API: GitHub failed");
  assert.equal(logged?.error, upstream);
  assert.equal(logged?.status, 503);
});

Deno.test("GitHub unreachable answers 502", async () => {
  await using fake = startFakeGitHub();
  const down = startFakeGitHub();
  const closedUrl = down.url;
  await down[Symbol.asyncDispose]();
  await using t = await startTestApp(githubEnv(fake, { GITHUB_API_URL: closedUrl }));
  const auth = `Bearer ${(await signedInToken(t, fake)).accessToken}`;
  const res = await post(t, "/api/close", { owner: "o", repo: "r", pullNumber: 1 }, auth);
  assert.equal(res.status, 502);
  assert.deepEqual(await res.json(), { error: "GitHub is unreachable; try again later" });
});

Deno.test("a token GitHub stopped accepting answers 401 to its bearer: never refreshed on its behalf", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const { accessToken } = await signedInToken(t, fake);
  fake.expireAccessToken(accessToken);
  const res = await post(
    t,
    "/api/close",
    { owner: "o", repo: "r", pullNumber: 1 },
    `Bearer ${accessToken}`,
  );
  assert.equal(res.status, 401);
  assert.deepEqual(await res.json(), {
    error: "GitHub no longer accepts your token: Bad credentials",
  });
  const closes = fake.requestsTo("/repos/o/r/pulls/1");
  assert.equal(closes.length, 1);
  assert.equal(closes[0].headers.get("authorization"), `Bearer ${accessToken}`);
  assert.equal(fake.requestsTo("/login/oauth/access_token").length, 0);
  assert.equal((await getToken(t.kv, "7"))?.accessToken, accessToken, "the token is not replaced");
});

Deno.test("a signed-in user's token GitHub stopped accepting is refreshed once and the call retried", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const { accessToken } = await signedInToken(t, fake);
  fake.expireAccessToken(accessToken);
  const outcome = await gitHubAsUser(t, "7")({ method: "GET", path: "/user" });
  assert.equal(outcome.kind, "ok");
  const calls = fake.requestsTo("/user");
  assert.equal(calls.length, 2);
  assert.equal(calls[0].headers.get("authorization"), `Bearer ${accessToken}`);
  const replaced = (await getToken(t.kv, "7"))!.accessToken;
  assert.notEqual(replaced, accessToken);
  assert.equal(calls[1].headers.get("authorization"), `Bearer ${replaced}`);
  assert.equal(fake.requestsTo("/login/oauth/access_token").length, 1);

  const stale = await post(
    t,
    "/api/close",
    { owner: "o", repo: "r", pullNumber: 1 },
    `Bearer ${accessToken}`,
  );
  assert.equal(stale.status, 401, "the replaced token no longer works as a bearer");
  await stale.body?.cancel();
});

Deno.test("a stale bearer token is refused: never used, not even once through a refresh", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const pair = fake.issueTokens(GRACE);
  const longAgo = Date.now() - 9 * HOUR;
  await saveToken(t.kv, {
    userId: "7",
    login: "grace",
    accessToken: pair.accessToken,
    expiresAt: longAgo + 8 * HOUR,
    refreshToken: pair.refreshToken,
    refreshTokenExpiresAt: longAgo + 4000 * HOUR,
  }, { now: longAgo });
  const res = await post(t, "/api/comment", COMMENT, `Bearer ${pair.accessToken}`);
  assert.equal(res.status, 401);
  assert.match(res.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
  assert.deepEqual(await res.json(), {
    error: "The token has expired; sign in again for a new one",
  });
  assert.equal(fake.requestsTo("/repos/").length, 0);
  assert.equal(fake.requestsTo("/login/oauth/access_token").length, 0);
  assert.equal((await getToken(t.kv, "7"))?.accessToken, pair.accessToken);
});

Deno.test("revoking a token makes its bearer fail", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  // The install flow gives a session to a person without any group.
  const { cookie } = await signIn(t, fake, GRACE, "/auth/github/install?installation_id=1");
  const bearer = `Bearer ${(await getToken(t.kv, "7"))!.accessToken}`;
  const before = await post(t, "/api/close", { owner: "o", repo: "r", pullNumber: 1 }, bearer);
  assert.equal(before.status, 200);
  await before.body?.cancel();

  const revoke = await t.fetch("/auth/token/7", { method: "DELETE", headers: { cookie: cookie! } });
  assert.equal(revoke.status, 200);
  await revoke.body?.cancel();
  const after = await post(t, "/api/close", { owner: "o", repo: "r", pullNumber: 1 }, bearer);
  assert.equal(after.status, 401);
  assert.deepEqual(await after.json(), { error: "Invalid or revoked token" });
});

Deno.test("owner and repo follow GitHub's rules: dot segments never reach GitHub", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const auth = `Bearer ${(await signedInToken(t, fake)).accessToken}`;
  const refused: [Record<string, unknown>, RegExp][] = [
    [{ owner: "o", repo: ".." }, /^Invalid repo:/],
    [{ owner: "o", repo: "." }, /^Invalid repo:/],
    [{ owner: "..", repo: "r" }, /^Invalid owner:/],
    [{ owner: "-o", repo: "r" }, /^Invalid owner:/],
    [{ owner: "o".repeat(40), repo: "r" }, /^Invalid owner:/],
    [{ owner: "o", repo: "r".repeat(101) }, /^Invalid repo:/],
    [{ owner: "o", repo: "a/b" }, /^Invalid repo:/],
    [{ owner: "o", repo: "r%2e" }, /^Invalid repo:/],
  ];
  for (const [names, error] of refused) {
    const res = await post(t, "/api/close", { ...names, pullNumber: 1 }, auth);
    assert.equal(res.status, 400, JSON.stringify(names));
    assert.match((await res.json()).error, error);
  }
  assert.deepEqual(fake.requestsTo("/").map((r) => r.path), []);

  const dotted = await post(
    t,
    "/api/close",
    { owner: "o-1", repo: ".github", pullNumber: 2 },
    auth,
  );
  assert.equal(dotted.status, 200);
  await dotted.body?.cancel();
  assert.deepEqual(fake.requestsTo("/repos/").map((r) => r.path), ["/repos/o-1/.github/pulls/2"]);
});

Deno.test("repoPath refuses dot segments even when percent-encoded", () => {
  assert.equal(repoPath("o", "r.js", "issues", 1), "/repos/o/r.js/issues/1");
  for (const segment of ["..", ".", "%2e%2E", ".%2e", ""]) {
    assert.throws(() => repoPath("o", segment, "pulls", 1), TypeError, segment);
  }
});

Deno.test("action API bodies are read with a 256 KiB limit", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const auth = `Bearer ${(await signedInToken(t, fake)).accessToken}`;
  const big = await post(t, "/api/comment", { ...COMMENT, body: "x".repeat(300 * 1024) }, auth);
  assert.equal(big.status, 413);
  assert.deepEqual(await big.json(), { error: "Request too large" });

  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 16 * 1024;
      controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
    },
  }, { highWaterMark: 0 });
  const chunked = await t.fetch("/api/merge", {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: endless,
  });
  assert.equal(chunked.status, 413);
  await chunked.body?.cancel();
  assert.ok(pulled <= 256 * 1024 + 16 * 1024, `read ${pulled} bytes`);

  const longest = await post(t, "/api/comment", { ...COMMENT, body: "ü".repeat(65_536) }, auth);
  assert.equal(longest.status, 201);
  await longest.body?.cancel();
  assert.equal(fake.requestsTo("/repos/").length, 1);
});

Deno.test("while GitHub sign-in is not configured the action API answers 503 before authentication", async () => {
  await using t = await startTestApp();
  for (const path of ["/api/comment", "/api/merge", "/api/close", "/api/react"]) {
    const res = await post(t, path, COMMENT, "Bearer ghu_anything");
    assert.equal(res.status, 503, path);
    assert.deepEqual(await res.json(), { error: "GitHub sign-in is not configured" });
  }
  const get = await t.fetch("/api/comment");
  assert.equal(get.status, 405);
  await get.body?.cancel();
});
