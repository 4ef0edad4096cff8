/**
 * Identity lives on `ctx.state`: the folder's middleware resolves it once, handlers read it
 * with `principalOf` / `bearerUserOf`, and the console guard answers redirects rather than
 * throwing them.
 */
import type { Kv, KvConsistencyLevel, KvKey } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { bearerUserOf } from "../../lib/auth/bearer.ts";
import { guardConsole } from "../../lib/auth/console_guard.ts";
import { principalOf } from "../../lib/auth/principal.ts";
import { RequestContext } from "../../lib/fresh/context.ts";
import { HttpError } from "../../lib/fresh/mod.ts";
import type { State } from "../../lib/state.ts";
import type { Principal } from "../../lib/types.ts";
import { PEOPLE, startAdminApp } from "../_admin_helpers.ts";
import { captureLog, testConfig } from "../_helpers.ts";

const ADA: Principal = {
  userId: "101",
  login: "ada",
  superAdmin: false,
  roles: new Map(),
  csrfToken: "t".repeat(43),
  sessionId: "s".repeat(43),
  debug: false,
};

/** A request context with the given identity fields on its state. */
function contextWith(
  identity: Pick<State, "principal" | "bearerUserId">,
  path = "/admin/groups",
  headers: Record<string, string> = {},
): RequestContext<State> {
  const state: State = {
    requestId: "test-request",
    kv: undefined as unknown as Kv,
    config: testConfig(),
    log: captureLog().log,
    adapters: new Map(),
    ...identity,
  };
  return new RequestContext(new Request(`http://localhost${path}`, { headers }), {}, state, () => {
    throw new Error("no page");
  });
}

Deno.test("principalOf: the principal on the state; 401 for nobody; an error without middleware", () => {
  assert.equal(principalOf(contextWith({ principal: ADA })), ADA);
  assert.throws(
    () => principalOf(contextWith({ principal: null })),
    (error) => error instanceof HttpError && error.status === 401,
  );
  assert.throws(
    () => principalOf(contextWith({})),
    (error) =>
      !(error instanceof HttpError) && /no middleware resolves the principal/.test(
        (error as Error).message,
      ),
  );
});

Deno.test("bearerUserOf: the authenticated user id; an error without the action API middleware", () => {
  assert.equal(bearerUserOf(contextWith({ bearerUserId: "101" }, "/api/close")), "101");
  assert.throws(
    () => bearerUserOf(contextWith({}, "/api/close")),
    (error) =>
      !(error instanceof HttpError) && /no middleware authenticates the bearer/.test(
        (error as Error).message,
      ),
  );
});

Deno.test("console guard: page navigations get a returned redirect, API calls a thrown 401/403", () => {
  const page = { accept: "text/html" };
  const signIn = guardConsole(contextWith({ principal: null }, "/admin/logs?x=1", page));
  assert.equal(signIn?.status, 302);
  assert.equal(signIn?.headers.get("location"), "/admin/login?redirect=%2Fadmin%2Flogs%3Fx%3D1");
  const refused = guardConsole(contextWith({ principal: ADA }, "/admin/groups", page));
  assert.equal(refused?.status, 302);
  assert.equal(refused?.headers.get("location"), "/admin?error=forbidden");
  assert.throws(
    () => guardConsole(contextWith({ principal: null }, "/admin/api/me")),
    (error) => error instanceof HttpError && error.status === 401,
  );
  assert.throws(
    () => guardConsole(contextWith({ principal: ADA }, "/admin/api/me")),
    (error) => error instanceof HttpError && error.status === 403,
  );
  assert.equal(guardConsole(contextWith({ principal: ADA }, "/admin/invite", page)), null);
  const member = { ...ADA, roles: new Map([["alpha", "viewer" as const]]) };
  assert.equal(guardConsole(contextWith({ principal: member }, "/admin/groups", page)), null);
});

Deno.test("the action API authenticates the bearer before reading the body; a wrong method is 405 first", async () => {
  await using app = await startAdminApp({ GITHUB_CLIENT_ID: "id", GITHUB_CLIENT_SECRET: "secret" });
  const post = await app.t.fetch("/api/comment", { method: "POST", body: "{not json" });
  assert.equal(post.status, 401);
  assert.equal(post.headers.get("www-authenticate"), 'Bearer realm="switchyard"');
  await post.body?.cancel();
  const get = await app.t.fetch("/api/comment");
  assert.equal(get.status, 405);
  await get.body?.cancel();
});

Deno.test("the session's person is resolved once per console request", async () => {
  await using app = await startAdminApp();
  const cookie = await app.cookie("owner");
  const reads: string[] = [];
  const get = app.kv.get.bind(app.kv);
  app.kv.get = ((key: KvKey, options?: { consistency?: KvConsistencyLevel }) => {
    reads.push(String(key[0]));
    return get(key, options);
  }) as typeof app.kv.get;
  const res = await app.t.fetch("/admin/api/me", { headers: { cookie } });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).user.login, PEOPLE.owner.login);
  assert.equal(reads.filter((prefix) => prefix === "sessions").length, 1);
});
