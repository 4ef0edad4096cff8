/**
 * Fuzzing the admin API: every endpoint of the registry, called by every kind of caller with
 * hostile path ids, queries, headers and bodies (raw, hostile JSON, and mutations of a valid
 * body, which reach past the first check). Never a 5xx or a crash; a refused request writes
 * nothing.
 */
import fc from "fast-check";
import { ADMIN_ENDPOINTS } from "../../lib/admin/endpoints.ts";
import type { Endpoint } from "../../lib/admin/endpoint.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { createInvite } from "../../lib/store/config/invites.ts";
import {
  ALPHA,
  BETA,
  type Caller,
  PEOPLE,
  route,
  sendLog,
  startAdminApp,
  storeSendLogs,
} from "../_admin_helpers.ts";
import {
  headerValue,
  hostileJson,
  hostileQuery,
  idLike,
  mutationsOf,
  RAW_PATH_PARTS,
  rawBody,
} from "../fuzz_arbitraries.ts";
import { fuzz, type FuzzApp, FuzzBench } from "../fuzz_harness.ts";

const CALLERS: Caller[] = [
  "none",
  "viewer",
  "admin",
  "owner",
  "otherOwner",
  "stranger",
  "superAdmin",
];
const LOG = sendLog(Date.UTC(2025, 0, 2), { deliveryId: "d-1", status: "dead" });

interface AdminFuzzApp extends FuzzApp {
  cookies: Map<Caller, string>;
  inviteToken: string;
}

async function startAdmin(): Promise<AdminFuzzApp> {
  const admin = await startAdminApp();
  const cookies = new Map<Caller, string>();
  for (const caller of CALLERS) {
    if (caller !== "none") cookies.set(caller, await admin.cookie(caller));
  }
  await storeSendLogs(admin.kv, [LOG]);
  await regenerateGroupSecret(admin.kv, "alpha");
  const invite = await createInvite(admin.kv, {
    groupId: "alpha",
    role: "viewer",
    createdBy: PEOPLE.owner,
  });
  return {
    kv: admin.kv,
    lines: admin.t.lines,
    cookies,
    inviteToken: invite!.token,
    fetch: (request) => admin.t.app.fetch(request),
    [Symbol.asyncDispose]: () => admin[Symbol.asyncDispose](),
  };
}

const FRAGMENT = {
  id: "main",
  groupId: "alpha",
  name: "Main",
  node: { all: [{ type: "event", value: "push" }, { type: "field", path: "ref", value: "x" }] },
};

/** A valid body of each endpoint that takes one. */
const VALID_BODIES: Record<string, unknown> = {
  replaceRoutes: { routes: [route("alpha", "r1")] },
  replaceGroups: { groups: [ALPHA, BETA] },
  createGroup: { id: "gamma", name: "Gamma", members: [{ ...PEOPLE.owner, role: "owner" }] },
  replaceGroup: { ...ALPHA, name: "Renamed" },
  replaceGroupRoutes: {
    routes: [route("alpha", "r2", { digest: { windowSeconds: 60, threshold: 2 } })],
  },
  replaceFragments: { fragments: [FRAGMENT] },
  replaceGroupTargets: { targets: [{ platform: "discord", channelId: "42" }] },
  renameGroup: { newId: "alpha-2", name: "Alpha 2" },
  createInvite: { role: "admin" },
  testMatch: { node: FRAGMENT.node, event: "push", payload: { ref: "x" } },
  preview: { event: "push", provider: "github", payload: { ref: "refs/heads/main" } },
  importConfig: {
    version: 1,
    exportedAt: "2026-01-01T00:00:00.000Z",
    groups: [ALPHA],
    routes: [route("alpha", "r3")],
    fragments: [FRAGMENT],
    allowedTargets: [{ groupId: "alpha", targets: [{ platform: "telegram", chatId: "-1001" }] }],
  },
};

const ENDPOINTS = Object.entries(ADMIN_ENDPOINTS) as [string, Endpoint][];

/** A body for an endpoint: a mutation of its valid body, hostile JSON, or raw text. */
function bodyFor(name: string): fc.Arbitrary<string | Uint8Array<ArrayBuffer> | undefined> {
  const valid = VALID_BODIES[name];
  const json = (value: unknown) => JSON.stringify(value) ?? "null";
  return fc.oneof(
    { weight: valid === undefined ? 0 : 6, arbitrary: mutationsOf(valid ?? {}).map(json) },
    { weight: 2, arbitrary: hostileJson.map(json) },
    { weight: 1, arbitrary: rawBody },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** A path id, encoded; or, marked `raw:`, put in the path as it is (broken escapes). */
const pathId = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("alpha", "beta", LOG.id, "d-1") },
  { weight: 3, arbitrary: idLike },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_PARTS).map((part) => `raw:${part}`) },
);

const adminCase = fc.constantFrom(...ENDPOINTS).chain(([name, endpoint]) =>
  fc.record({
    name: fc.constant(name),
    endpoint: fc.constant(endpoint),
    method: fc.oneof(
      { weight: 8, arbitrary: fc.constant(endpoint.method) },
      { weight: 1, arbitrary: fc.constantFrom("GET", "PUT", "POST", "DELETE", "PATCH") },
    ),
    ids: fc.array(pathId, { minLength: 3, maxLength: 3 }),
    useInvite: fc.boolean(),
    query: fc.oneof(fc.constant(""), hostileQuery, fc.constantFrom("dryRun=true", "secrets=true")),
    body: bodyFor(name),
    caller: fc.constantFrom(...CALLERS),
    contentType: fc.oneof(
      { weight: 5, arbitrary: fc.constant("application/json") },
      { weight: 1, arbitrary: headerValue },
    ),
    ifMatch: fc.option(headerValue, { nil: undefined }),
    origin: fc.option(fc.constantFrom("http://localhost", "https://evil.example", "null"), {
      nil: undefined,
    }),
  })
);

function concretePath(path: string, ids: string[], invite: string | undefined): string {
  let index = 0;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "token" && invite) return invite;
    const id = ids[index++ % ids.length];
    return id.startsWith("raw:") ? id.slice(4) : encodeURIComponent(id.toWellFormed());
  });
}

Deno.test("fuzz: admin API bodies, parameters and callers", async () => {
  await using bench = new FuzzBench(startAdmin, "admin API");
  await fuzz(adminCase, (c) =>
    bench.send((app) => {
      const { cookies, inviteToken } = app as AdminFuzzApp;
      const path = concretePath(c.endpoint.path, c.ids, c.useInvite ? inviteToken : undefined);
      const headers = new Headers({ "content-type": c.contentType });
      const cookie = cookies.get(c.caller);
      if (cookie) headers.set("cookie", cookie);
      if (c.ifMatch !== undefined) headers.set("if-match", c.ifMatch);
      if (c.origin !== undefined) headers.set("origin", c.origin);
      const hasBody = c.method !== "GET" && c.body !== undefined;
      return new Request(`http://localhost${path}${c.query ? `?${c.query}` : ""}`, {
        method: c.method,
        headers,
        body: hasBody ? c.body : undefined,
      });
    }, `${c.name} as ${c.caller}`));
});
