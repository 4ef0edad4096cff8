/**
 * Fuzzing the sign-in flows: the OAuth callback with hostile codes, states and cookies, the
 * start of each flow with hostile queries, the installation pages, token revocation and the
 * console's sign-in, sign-out and invite forms. Never a 5xx or a crash; a refused request
 * writes nothing, except that a callback carrying a real state consumes it (single use).
 */
import fc from "fast-check";
import { startTestApp } from "../_helpers.ts";
import { PEOPLE } from "../_admin_helpers.ts";
import { createSession } from "../../lib/store/auth/sessions.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { ALPHA } from "../_admin_helpers.ts";
import { type FakeGitHub, githubEnv, startFakeGitHub, startSignIn } from "../fake_github.ts";
import { headerValue, hostileQuery, hostileString, RAW_PATH_PARTS } from "../fuzz_arbitraries.ts";
import { fuzz, type FuzzApp, FuzzBench } from "../fuzz_harness.ts";

interface AuthApp extends FuzzApp {
  fake: FakeGitHub;
  cookie: string;
  startFlow(path: string): Promise<{ state: string; cookie: string | null }>;
}

async function startAuth(): Promise<AuthApp> {
  const fake = startFakeGitHub();
  const t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: PEOPLE.superAdmin.userId }));
  await putGroup(t.kv, ALPHA);
  const { sessionId } = await createSession(t.kv, PEOPLE.owner);
  return {
    kv: t.kv,
    fake,
    cookie: `switchyard_session=${sessionId}`,
    fetch: (request) => t.app.fetch(request),
    startFlow: (path) => startSignIn(t, path),
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await fake[Symbol.asyncDispose]();
    },
  };
}

const url = (path: string, query: string) => `http://localhost${path}${query ? `?${query}` : ""}`;
/** What a refused sign-in may still write: the used mark of a real state, the signing key once. */
const oauthStateKey = (key: string) =>
  key.startsWith('["oauth_states_used",') || key === '["instance_secret"]';

const callbackQuery = fc.record({
  code: fc.option(fc.oneof(hostileString, fc.stringMatching(/^[0-9a-f]{0,40}$/)), {
    nil: undefined,
  }),
  state: fc.option(fc.oneof(hostileString, fc.stringMatching(/^[0-9a-f]{32,64}$/)), {
    nil: undefined,
  }),
  error: fc.option(fc.constantFrom("access_denied", "redirect_uri_mismatch", "x"), {
    nil: undefined,
  }),
  extra: hostileQuery,
});

function queryOf(q: { code?: string; state?: string; error?: string; extra: string }) {
  const params = new URLSearchParams(q.extra);
  for (const name of ["code", "state", "error"] as const) {
    const value = q[name];
    if (value !== undefined) params.set(name, value.toWellFormed());
  }
  return params.toString();
}

Deno.test("fuzz: OAuth callback with unknown states, hostile codes and cookies", async () => {
  await using bench = new FuzzBench(startAuth, "oauth callback");
  const arbitrary = fc.record({
    query: callbackQuery,
    cookie: fc.option(headerValue, { nil: undefined }),
    accept: fc.constantFrom("text/html", "application/json", "*/*", ""),
  });
  await fuzz(arbitrary, ({ query, cookie, accept }) => {
    const headers = new Headers({ accept });
    if (cookie !== undefined) headers.set("cookie", cookie);
    return bench.send(new Request(url("/auth/github/callback", queryOf(query)), { headers }));
  });
});

Deno.test("fuzz: OAuth callback with a real state and a hostile code", async () => {
  await using bench = new FuzzBench(startAuth, "oauth callback, real state");
  const arbitrary = fc.record({
    start: fc.constantFrom("/admin/login", "/auth/github", "/auth/github?flow=json"),
    code: hostileString,
    keepCookie: fc.boolean(),
  });
  await fuzz(arbitrary, ({ start, code, keepCookie }) =>
    bench.send(
      async (app) => {
        const flow = await (app as AuthApp).startFlow(start);
        const headers = new Headers({ accept: "text/html" });
        if (keepCookie && flow.cookie) headers.set("cookie", flow.cookie);
        const query = new URLSearchParams({ code: code.toWellFormed(), state: flow.state });
        return new Request(url("/auth/github/callback", query.toString()), { headers });
      },
      "",
      oauthStateKey,
    ));
});

const AUTH_PATHS = [
  "/auth/github",
  "/auth/github/install",
  "/auth/github/install/bind",
  "/auth/token/7",
  "/admin/login",
  "/admin/logout",
  "/admin/invite",
];

Deno.test("fuzz: sign-in starts, install pages, token revocation and console forms", async () => {
  await using bench = new FuzzBench(startAuth, "auth pages");
  const arbitrary = fc.record({
    path: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...AUTH_PATHS) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_PARTS).map((p) => `/auth/token/${p}`) },
    ),
    method: fc.constantFrom("GET", "POST", "DELETE"),
    query: hostileQuery,
    signedIn: fc.boolean(),
    origin: fc.option(fc.constantFrom("http://localhost", "https://evil.example", "null"), {
      nil: undefined,
    }),
    form: fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom("csrf", "csrf_token", "installation_id", "group", "token"),
          hostileString,
        ),
        hostileString,
      ),
      { maxLength: 4 },
    ),
    contentType: fc.constantFrom(
      "application/x-www-form-urlencoded",
      "application/json",
      "multipart/form-data; boundary=x",
      "",
    ),
  });
  await fuzz(arbitrary, (c) =>
    bench.send(
      (app) => {
        const headers = new Headers({ accept: "text/html" });
        if (c.signedIn) headers.set("cookie", (app as AuthApp).cookie);
        if (c.origin !== undefined) headers.set("origin", c.origin);
        if (c.contentType) headers.set("content-type", c.contentType);
        const body = c.method === "GET"
          ? undefined
          : new URLSearchParams(c.form.map(([k, v]) => [k.toWellFormed(), v.toWellFormed()]))
            .toString();
        return new Request(url(c.path, c.query), { method: c.method, headers, body });
      },
      "",
      oauthStateKey,
    ));
});
