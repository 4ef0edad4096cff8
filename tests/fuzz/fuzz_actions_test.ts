/**
 * Fuzzing the action API (`/api/comment`, `/api/merge`, `/api/close`, `/api/react`): hostile
 * bearer tokens and bodies (and mutations of valid ones, sent with a real token to a local
 * fake of GitHub). Never a 5xx or a crash; a refused request writes nothing.
 */
import fc from "fast-check";
import { saveToken } from "../../lib/store/auth/tokens.ts";
import { startTestApp } from "../_helpers.ts";
import { type FakeGitHub, githubEnv, startFakeGitHub } from "../fake_github.ts";
import { headerValue, hostileJson, mutationsOf, rawBody } from "../fuzz_arbitraries.ts";
import { fuzz, type FuzzApp, FuzzBench } from "../fuzz_harness.ts";

interface ActionApp extends FuzzApp {
  token: string;
}

async function startActions(): Promise<ActionApp> {
  const fake: FakeGitHub = startFakeGitHub();
  const t = await startTestApp(githubEnv(fake));
  const pair = fake.issueTokens({ id: 7, login: "grace" });
  await saveToken(t.kv, {
    userId: "7",
    login: "grace",
    accessToken: pair.accessToken,
    expiresAt: Date.now() + 8 * 3_600_000,
    refreshToken: pair.refreshToken,
    refreshTokenExpiresAt: Date.now() + 4_000 * 3_600_000,
  });
  return {
    kv: t.kv,
    token: pair.accessToken,
    fetch: (request) => t.app.fetch(request),
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await fake[Symbol.asyncDispose]();
    },
  };
}

const VALID: Record<string, unknown> = {
  "/api/comment": { owner: "octo-org", repo: "switchyard", issueNumber: 12, body: "Looks good" },
  "/api/merge": { owner: "octo-org", repo: "switchyard", pullNumber: 3, mergeMethod: "squash" },
  "/api/close": { owner: "octo-org", repo: "switchyard", pullNumber: 3 },
  "/api/react": { owner: "octo-org", repo: "switchyard", issueNumber: 12, content: "rocket" },
};

const json = (value: unknown) => JSON.stringify(value) ?? "null";

const actionCase = fc.constantFrom(...Object.keys(VALID)).chain((path) =>
  fc.record({
    path: fc.constant(path),
    method: fc.oneof(
      { weight: 8, arbitrary: fc.constant("POST") },
      { weight: 1, arbitrary: fc.constantFrom("GET", "PUT", "DELETE") },
    ),
    body: fc.oneof(
      { weight: 4, arbitrary: mutationsOf(VALID[path]).map(json) },
      { weight: 1, arbitrary: hostileJson.map(json) },
      { weight: 1, arbitrary: rawBody },
    ),
    auth: fc.oneof(
      { weight: 3, arbitrary: fc.constant("real") },
      { weight: 1, arbitrary: fc.constant("none") },
      { weight: 2, arbitrary: headerValue },
      { weight: 1, arbitrary: headerValue.map((value) => `Bearer ${value}`) },
    ),
    contentType: fc.oneof(
      { weight: 5, arbitrary: fc.constant("application/json") },
      { weight: 1, arbitrary: headerValue },
    ),
  })
);

Deno.test("fuzz: action API bearer tokens and bodies", async () => {
  await using bench = new FuzzBench(startActions, "action API");
  await fuzz(actionCase, (c) =>
    bench.send((app) => {
      const headers = new Headers({ "content-type": c.contentType });
      if (c.auth === "real") headers.set("authorization", `Bearer ${(app as ActionApp).token}`);
      else if (c.auth !== "none") headers.set("authorization", c.auth);
      return new Request(`http://localhost${c.path}`, {
        method: c.method,
        headers,
        body: c.method === "GET" ? undefined : c.body,
      });
    }, c.path));
});
