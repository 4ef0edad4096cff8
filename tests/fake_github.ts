/**
 * A local fake of the parts of GitHub Switchyard talks to: the OAuth token
 * endpoint (codes, GitHub App refresh), `GET /user`, `GET /user/installations`,
 * `GET /user/memberships/orgs/{org}`, `GET /repos/{o}/{r}`, a team's members and the REST actions (comment, merge, close, reopen, react,
 * open an issue; a run's pending deployments, their review, re-run and cancel). It records
 * every request, and tests can script refusals. Also: the settings that point the app at it, and a sign-in helper.
 */
import type { TestApp } from "./_helpers.ts";

/** A GitHub account. */
export interface FakeUser {
  id: number;
  login: string;
}

/** How tokens are issued: GitHub App user tokens (expiring, refreshable) or OAuth App tokens. */
export interface TokenStyle {
  /** Seconds; absent: the token never expires and has no refresh token. */
  expiresIn?: number;
  refreshTokenExpiresIn?: number;
}

/** One request the fake received. */
export interface Received {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

/** A token pair the fake handed out. */
export interface IssuedPair {
  accessToken: string;
  refreshToken?: string;
}

/** The running fake. */
export interface FakeGitHub extends AsyncDisposable {
  url: string;
  received: Received[];
  /** How the next tokens are issued (GitHub App style by default). */
  tokenStyle: TokenStyle;
  /** Installations each user id can see. */
  installations: Map<
    number,
    { id: number; account: { id: number; login: string; type: string } }[]
  >;
  /** Organization memberships by user id, then organization login (lower-case). */
  memberships: Map<number, Map<string, { role: string; state: string }>>;
  /** What `GET …/actions/runs/{id}/pending_deployments` answers, by run id (none by default). */
  pendingDeployments: Map<number, { environment: { id: number; name: string } }[]>;
  /** Repositories (`owner/name`, lower case) each user id can read (`GET /repos/{o}/{r}`). */
  readable: Map<number, Set<string>>;
  /**
   * Team members' logins (lower case) by `org/slug` (lower case); a team's members are shown to
   * its members and to the organization's active members (`memberships`).
   */
  teams: Map<string, Set<string>>;
  /** What `GET /repos/{owner}/{repo}/pulls?state=open` answers, by `owner/repo` (404 when absent). */
  openPulls: Map<string, unknown[]>;
  /**
   * Awaited after a list of open pull requests was read and before it is answered: what a test
   * does here lands while the caller waits for a list already out of date.
   */
  whilePullsAnswered?: () => Promise<void>;
  /** Scripted refusals by `METHOD /path`: answered with that status and `{ message }`. */
  refusals: Map<string, { status: number; message: string }>;
  /** Scripted answers by `METHOD /path`: that status and body text as they are (odd successes). */
  answers: Map<string, { status: number; text: string }>;
  /** A single-use authorization code for the user, as GitHub would hand the browser. */
  issueCode(user: FakeUser): string;
  /** Hands out a token pair directly (as a completed sign-in would have). */
  issueTokens(user: FakeUser): IssuedPair;
  /** Makes GitHub stop accepting an access token (its refresh token keeps working). */
  expireAccessToken(accessToken: string): void;
  /** Requests to paths starting with `prefix`. */
  requestsTo(prefix: string): Received[];
}

/** The settings for the sign-in and install flows against the fake. */
export const CLIENT_ID = "Iv1.fakeclient";
/** The client secret the fake expects. */
export const CLIENT_SECRET = "fake-client-secret";

/** Starts the fake on a free loopback port. */
export function startFakeGitHub(): FakeGitHub {
  const codes = new Map<string, FakeUser>();
  const accessTokens = new Map<string, FakeUser>();
  const refreshTokens = new Map<string, FakeUser>();
  let counter = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = Object.fromEntries(new URLSearchParams(text));
    }
    fake.received.push({
      method: req.method,
      path: url.pathname + url.search,
      headers: req.headers,
      body,
    });
    const answer = handle(req.method, url.pathname, req.headers, body, url.searchParams);
    if (req.method === "GET" && /^\/repos\/[^/]+\/[^/]+\/pulls$/.test(url.pathname)) {
      await fake.whilePullsAnswered?.();
    }
    return answer;
  });
  const fake: FakeGitHub = {
    url: `http://127.0.0.1:${server.addr.port}`,
    received: [],
    tokenStyle: { expiresIn: 28_800, refreshTokenExpiresIn: 15_811_200 },
    installations: new Map(),
    memberships: new Map(),
    pendingDeployments: new Map(),
    readable: new Map(),
    teams: new Map(),
    openPulls: new Map(),
    refusals: new Map(),
    answers: new Map(),
    issueCode(user) {
      const code = `code-${++counter}-${crypto.randomUUID()}`;
      codes.set(code, user);
      return code;
    },
    issueTokens(user) {
      const accessToken = `ghu_${++counter}${crypto.randomUUID().replaceAll("-", "")}`;
      accessTokens.set(accessToken, user);
      if (fake.tokenStyle.expiresIn === undefined) return { accessToken };
      const refreshToken = `ghr_${counter}${crypto.randomUUID().replaceAll("-", "")}`;
      refreshTokens.set(refreshToken, user);
      return { accessToken, refreshToken };
    },
    expireAccessToken(accessToken) {
      accessTokens.delete(accessToken);
    },
    requestsTo(prefix) {
      return fake.received.filter((r) => r.path.startsWith(prefix));
    },
    [Symbol.asyncDispose]: () => server.shutdown(),
  };

  const tokenAnswer = (user: FakeUser) => {
    const pair = fake.issueTokens(user);
    const style = fake.tokenStyle;
    if (!pair.refreshToken) {
      return { access_token: pair.accessToken, token_type: "bearer", scope: "repo" };
    }
    return {
      access_token: pair.accessToken,
      token_type: "bearer",
      scope: "",
      expires_in: style.expiresIn,
      refresh_token: pair.refreshToken,
      refresh_token_expires_in: style.refreshTokenExpiresIn,
    };
  };

  const handle = (
    method: string,
    path: string,
    headers: Headers,
    body: unknown,
    query: URLSearchParams,
  ): Response => {
    const refusal = fake.refusals.get(`${method} ${path}`);
    if (path === "/login/oauth/access_token" && method === "POST") {
      const params = body as Record<string, string>;
      if (params.client_id !== CLIENT_ID || params.client_secret !== CLIENT_SECRET) {
        return Response.json({ error: "incorrect_client_credentials" });
      }
      if (params.grant_type === "refresh_token") {
        const user = refreshTokens.get(params.refresh_token);
        if (!user) return Response.json({ error: "bad_refresh_token" });
        refreshTokens.delete(params.refresh_token);
        for (const [token, owner] of accessTokens) if (owner === user) accessTokens.delete(token);
        return Response.json(tokenAnswer(user));
      }
      const user = codes.get(params.code);
      if (!user) {
        return Response.json({
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        });
      }
      codes.delete(params.code);
      return Response.json(tokenAnswer(user));
    }
    const bearer = headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    const user = accessTokens.get(bearer);
    if (!user) return Response.json({ message: "Bad credentials" }, { status: 401 });
    if (refusal) return Response.json({ message: refusal.message }, { status: refusal.status });
    const answer = fake.answers.get(`${method} ${path}`);
    if (answer) {
      const text = answer.status === 204 ? null : answer.text;
      return new Response(text, {
        status: answer.status,
        headers: { "content-type": "application/json" },
      });
    }
    if (path === "/user" && method === "GET") return Response.json({ ...user, type: "User" });
    if (path === "/user/installations" && method === "GET") {
      const installations = fake.installations.get(user.id) ?? [];
      return Response.json({ total_count: installations.length, installations });
    }
    const org = path.match(/^\/user\/memberships\/orgs\/([^/]+)$/);
    if (org && method === "GET") {
      const login = decodeURIComponent(org[1]).toLowerCase();
      const membership = fake.memberships.get(user.id)?.get(login);
      if (!membership) return Response.json({ message: "Not Found" }, { status: 404 });
      return Response.json({ ...membership, organization: { login }, user: { login: user.login } });
    }
    const repository = path.match(/^\/repos\/([^/]+)\/([^/]+)$/);
    if (repository && method === "GET") {
      const name = `${decodeURIComponent(repository[1])}/${decodeURIComponent(repository[2])}`;
      if (!fake.readable.get(user.id)?.has(name.toLowerCase())) {
        return Response.json({ message: "Not Found" }, { status: 404 });
      }
      return Response.json({ full_name: name, private: true });
    }
    const team = path.match(/^\/orgs\/([^/]+)\/teams\/([^/]+)\/members$/);
    if (team && method === "GET") {
      const org = decodeURIComponent(team[1]).toLowerCase();
      const members = fake.teams.get(`${org}/${decodeURIComponent(team[2])}`.toLowerCase());
      // GitHub shows a team to its members and to the organization's active members
      const sees = members?.has(user.login.toLowerCase()) ||
        fake.memberships.get(user.id)?.get(org)?.state === "active";
      if (!members || !sees) return Response.json({ message: "Not Found" }, { status: 404 });
      const perPage = Number(query.get("per_page") ?? 30);
      const page = Number(query.get("page") ?? 1);
      const list = [...members].slice((page - 1) * perPage, page * perPage);
      return Response.json(list.map((login) => ({ login, type: "User" })));
    }
    const issue = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/(comments|reactions)$/);
    if (issue && method === "POST") {
      const id = ++counter;
      if (issue[4] === "reactions") return Response.json({ id, content: "x" }, { status: 201 });
      const url = `https://github.com/${issue[1]}/${issue[2]}/issues/${
        issue[3]
      }#issuecomment-${id}`;
      return Response.json({ id, html_url: url }, { status: 201 });
    }
    const run = path.match(
      /^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)\/(pending_deployments|rerun|rerun-failed-jobs|cancel)$/,
    );
    if (run && run[2] === "pending_deployments") {
      const pending = fake.pendingDeployments.get(Number(run[1])) ?? [];
      return Response.json(method === "GET" ? pending : []);
    }
    if (run && method === "POST") {
      return Response.json({}, { status: run[2] === "cancel" ? 202 : 201 });
    }
    const pulls = path.match(/^\/repos\/([^/]+)\/([^/]+)\/pulls$/);
    if (pulls && method === "GET") {
      const list = fake.openPulls.get(`${pulls[1]}/${pulls[2]}`);
      return list ? Response.json(list) : Response.json({ message: "Not Found" }, { status: 404 });
    }
    const opened = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues$/);
    if (opened && method === "POST") {
      const number = ++counter;
      const url = `https://github.com/${opened[1]}/${opened[2]}/issues/${number}`;
      return Response.json({ number, html_url: url }, { status: 201 });
    }
    if (/^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/merge$/.test(path) && method === "PUT") {
      return Response.json({
        sha: "a".repeat(40),
        merged: true,
        message: "Pull Request successfully merged",
      });
    }
    if (/^\/repos\/[^/]+\/[^/]+\/pulls\/\d+$/.test(path) && method === "PATCH") {
      return Response.json({ number: 1, state: "closed" });
    }
    if (/^\/repos\/[^/]+\/[^/]+\/issues\/\d+$/.test(path) && method === "PATCH") {
      return Response.json({ number: 1, state: (body as { state?: string })?.state ?? "open" });
    }
    return Response.json({ message: "Not Found" }, { status: 404 });
  };

  return fake;
}

/** Settings that point the app's GitHub sign-in and install flow at the fake. */
export function githubEnv(
  fake: FakeGitHub,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    GITHUB_URL: fake.url,
    GITHUB_API_URL: fake.url,
    GITHUB_CLIENT_ID: CLIENT_ID,
    GITHUB_CLIENT_SECRET: CLIENT_SECRET,
    GITHUB_APP_ID: "12345",
    GITHUB_APP_SLUG: "switchyard-test",
    ...extra,
  };
}

/** The `state` of a redirect to GitHub's authorize address. */
export function stateOf(res: Response): string {
  const location = res.headers.get("location");
  if (!location) throw new Error(`expected a redirect, got ${res.status}`);
  const state = new URL(location).searchParams.get("state");
  if (!state) throw new Error(`no state in ${location}`);
  return state;
}

/** The `name=value` part of the session cookie a response sets, or null. */
export function sessionCookieOf(res: Response): string | null {
  const header = res.headers.get("set-cookie") ?? "";
  const match = header.match(/switchyard_session=([^;]*)/);
  return match && match[1] ? `switchyard_session=${match[1]}` : null;
}

/**
 * The `name=value` part of the browser binding cookie a sign-in start sets
 * (`switchyard_oauth` or `__Host-switchyard_oauth`), or null.
 */
export function bindingCookieOf(res: Response): string | null {
  const cookie = res.headers.getSetCookie().find((c) => /^(__Host-)?switchyard_oauth=/.test(c));
  return cookie ? cookie.split(";")[0] : null;
}

/** Starts a sign-in at `path`: its state and the browser binding cookie to send back, if any. */
export async function startSignIn(
  t: TestApp,
  path: string,
  accept = "text/html",
): Promise<{ state: string; cookie: string | null }> {
  const begin = await t.fetch(path, { headers: { accept } });
  await begin.body?.cancel();
  return { state: stateOf(begin), cookie: bindingCookieOf(begin) };
}

/**
 * Signs `user` in through the browser flow (start, GitHub's redirect back,
 * callback, in the same browser) and returns the callback's answer and the
 * session cookie.
 */
export async function signIn(
  t: TestApp,
  fake: FakeGitHub,
  user: FakeUser,
  start = "/admin/login",
): Promise<{ res: Response; cookie: string | null }> {
  const { state, cookie: binding } = await startSignIn(t, start);
  const code = fake.issueCode(user);
  const res = await t.fetch(`/auth/github/callback?code=${code}&state=${state}`, {
    headers: { accept: "text/html", ...(binding ? { cookie: binding } : {}) },
  });
  await res.body?.cancel();
  return { res, cookie: sessionCookieOf(res) };
}
