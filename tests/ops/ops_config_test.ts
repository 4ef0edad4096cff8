/** Configuration export and import through the admin API. */
import assert from "node:assert/strict";
import { MAX_ALLOWED_TARGETS } from "../../lib/limits.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { createSession } from "../../lib/store/auth/sessions.ts";
import { snapshotChanges, snapshotStore } from "../../testing/store_snapshot.ts";
import { allowTarget, type Answer, PEOPLE, route, startAdminApp } from "../_admin_helpers.ts";
import { startTestApp, type TestApp } from "../_helpers.ts";
import { jsonBytes } from "../_ingest_helpers.ts";

const EXPORT = "/admin/api/config/export";
const IMPORT = "/admin/api/config/import";

/** An empty instance with `sam` as super admin, and a client calling as him. */
async function emptyInstance(): Promise<
  { t: TestApp; call: (method: string, path: string, body?: unknown) => Promise<Answer> }
> {
  const t = await startTestApp({ ADMIN_USER_IDS: PEOPLE.superAdmin.userId });
  const { sessionId } = await createSession(t.kv, PEOPLE.superAdmin);
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { cookie: `switchyard_session=${sessionId}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await t.fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json(), headers: res.headers };
  };
  return { t, call };
}

/** Instance A: routes (one with a digest), fragments, allowed targets and a webhook secret. */
async function populatedInstance() {
  const admin = await startAdminApp();
  await allowTarget(admin.kv, "alpha");
  const routes = [
    route("alpha", "pushes", { digest: { windowSeconds: 600, threshold: 3 } }),
    route("alpha", "fallback", { fallback: true, filters: [] }),
  ];
  const put = await admin.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const fragments = [{
    id: "main-branch",
    groupId: "alpha",
    name: "Main branch",
    node: { type: "field", path: "ref", value: "refs/heads/main" },
  }];
  const frag = await admin.call("owner", "PUT", "/admin/api/groups/alpha/fragments", {
    body: { fragments },
  });
  assert.equal(frag.status, 200, JSON.stringify(frag.body));
  const targets = await admin.call("superAdmin", "PUT", "/admin/api/groups/beta/targets", {
    body: { targets: [{ platform: "telegram", chatId: "-100123" }] },
  });
  assert.equal(targets.status, 200, JSON.stringify(targets.body));
  const secret = await admin.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate");
  assert.equal(secret.status, 200, JSON.stringify(secret.body));
  return { admin, secret: secret.body.secret as string };
}

function withoutTime(document: Record<string, unknown>) {
  const { exportedAt: _, ...rest } = document;
  return rest;
}

Deno.test("config: export and import round trip between two stores", async () => {
  const { admin, secret } = await populatedInstance();
  await using _a = admin;
  const exported = await admin.call("superAdmin", "GET", `${EXPORT}?secrets=true`);
  assert.equal(exported.status, 200, JSON.stringify(exported.body));
  const document = exported.body;
  assert.equal(document.version, 1);
  assert.match(document.exportedAt, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual(document.groups.map((g: { id: string }) => g.id), ["alpha", "beta"]);
  assert.equal(document.routes.length, 2);
  assert.deepEqual(document.routes[0].digest, { windowSeconds: 600, threshold: 3 });
  assert.equal(document.fragments.length, 1);
  assert.deepEqual(document.secrets, [{ groupId: "alpha", secret }]);

  const b = await emptyInstance();
  await using _b = b.t;
  const dry = await b.call("POST", `${IMPORT}?dryRun=true`, document);
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(dry.body.dryRun, true);
  assert.deepEqual(dry.body.groups.map((g: { action: string }) => g.action), ["create", "create"]);
  assert.equal((await b.call("GET", EXPORT)).body.groups.length, 0, "a dry run writes nothing");

  const imported = await b.call("POST", IMPORT, document);
  assert.equal(imported.status, 200, JSON.stringify(imported.body));
  assert.deepEqual(imported.body.groups[0], {
    id: "alpha",
    action: "create",
    routes: 2,
    fragments: 1,
    allowedTargets: 1,
    secret: true,
  });
  const again = await b.call("GET", `${EXPORT}?secrets=true`);
  assert.deepEqual(withoutTime(again.body), withoutTime(document));

  const push = jsonBytes({ ref: "refs/heads/main" });
  const webhook = await b.t.fetch("/webhook/alpha", {
    method: "POST",
    body: push,
    headers: {
      "content-type": "application/json",
      "x-github-event": "push",
      "x-hub-signature-256": await signGithubBody(secret, push),
    },
  });
  assert.equal(webhook.status, 200, "the imported secret verifies the group's ingress");
  const audit = await listAuditEntries(b.t.kv, {});
  const imports = audit.filter((entry) => entry.action === "config.import");
  assert.deepEqual(imports.map((entry) => entry.groupId).sort(), ["alpha", "beta"]);
  assert.equal(imports[0].actor.login, PEOPLE.superAdmin.login);

  const replaced = await b.call("POST", IMPORT, document);
  assert.deepEqual(replaced.body.groups.map((g: { action: string }) => g.action), [
    "replace",
    "replace",
  ]);
});

Deno.test("config: the export leaves secrets out unless asked for", async () => {
  const { admin } = await populatedInstance();
  await using _a = admin;
  const plain = await admin.call("superAdmin", "GET", EXPORT);
  assert.equal(plain.status, 200);
  assert.equal("secrets" in plain.body, false);
  assert.equal(JSON.stringify(plain.body).includes("secret"), false);
});

Deno.test("config: every export is audited, saying who exported and whether with secrets", async () => {
  const { admin } = await populatedInstance();
  await using _a = admin;
  const before = Date.now();
  assert.equal((await admin.call("superAdmin", "GET", EXPORT)).status, 200);
  assert.equal((await admin.call("superAdmin", "GET", `${EXPORT}?secrets=true`)).status, 200);
  const exports = (await listAuditEntries(admin.kv)).filter((entry) =>
    entry.action === "config.export"
  );
  assert.deepEqual(
    exports.map(({ actor, detail, groupId }) => ({ actor, detail, groupId })),
    [
      { actor: PEOPLE.superAdmin, detail: { secrets: true, groups: 2 }, groupId: undefined },
      { actor: PEOPLE.superAdmin, detail: { secrets: false, groups: 2 }, groupId: undefined },
    ],
  );
  for (const entry of exports) assert.ok(entry.at >= before && entry.at <= Date.now());
});

Deno.test("config: a refused import changes nothing", async () => {
  const { admin } = await populatedInstance();
  await using _a = admin;
  const document = (await admin.call("superAdmin", "GET", `${EXPORT}?secrets=true`)).body;
  const bad: [string, unknown][] = [
    ["no version", { ...document, version: undefined }],
    ["version 2", { ...document, version: 2 }],
    ["not an object", [document]],
    ["route of a group not in the document", {
      ...document,
      routes: [...document.routes, route("gamma", "r1")],
    }],
    ["duplicate group", { ...document, groups: [...document.groups, document.groups[0]] }],
    ["bad digest", {
      ...document,
      routes: [{ ...document.routes[0], digest: { windowSeconds: 0, threshold: 1 } }],
    }],
    ["a template that does not parse", {
      ...document,
      routes: [{ ...document.routes[0], template: { body: "{{#each commits}}" } }],
    }],
    ["bad secret", { ...document, secrets: [{ groupId: "alpha", secret: "short" }] }],
    ["secret of an unknown group", {
      ...document,
      secrets: [{ groupId: "nobody", secret: "0123456789abcdef0123" }],
    }],
    ["unknown field", { ...document, extra: true }],
    ["too many targets", {
      ...document,
      allowedTargets: [{
        groupId: "alpha",
        targets: Array.from({ length: MAX_ALLOWED_TARGETS + 1 }, (_, i) => ({
          platform: "discord",
          channelId: String(1000 + i),
        })),
      }],
    }],
    ["fragment of a group not in the document", {
      ...document,
      fragments: [{ ...document.fragments[0], groupId: "gamma" }],
    }],
  ];
  const before = await snapshotStore(admin.kv);
  for (const [what, body] of bad) {
    for (const dryRun of ["", "?dryRun=true"]) {
      const res = await admin.call("superAdmin", "POST", `${IMPORT}${dryRun}`, { body });
      assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
      assert.equal(typeof res.body.error, "string", what);
    }
  }
  assert.deepEqual(snapshotChanges(before, await snapshotStore(admin.kv)), []);
});

Deno.test("config: only a super admin exports or imports", async () => {
  const { admin } = await populatedInstance();
  await using _a = admin;
  const document = (await admin.call("superAdmin", "GET", EXPORT)).body;
  const callers = ["owner", "admin", "viewer", "stranger"] as const;
  for (const caller of callers) await admin.cookie(caller);
  const before = await snapshotStore(admin.kv);
  for (const caller of callers) {
    assert.equal((await admin.call(caller, "GET", EXPORT)).status, 403, caller);
    assert.equal((await admin.call(caller, "GET", `${EXPORT}?secrets=true`)).status, 403, caller);
    const res = await admin.call(caller, "POST", IMPORT, { body: document });
    assert.equal(res.status, 403, caller);
  }
  assert.equal((await admin.call("none", "GET", EXPORT)).status, 401);
  assert.equal((await admin.call("none", "POST", IMPORT, { body: document })).status, 401);
  assert.deepEqual(snapshotChanges(before, await snapshotStore(admin.kv)), []);
});

Deno.test("config: groups not in the document stay as they are", async () => {
  const { admin } = await populatedInstance();
  await using _a = admin;
  const document = (await admin.call("superAdmin", "GET", EXPORT)).body;
  const betaBefore = await admin.call("superAdmin", "GET", "/admin/api/groups/beta/targets");
  const onlyAlpha = {
    ...document,
    groups: [{ ...document.groups[0], name: "Alpha imported" }],
    routes: [route("alpha", "only")],
    fragments: [],
    allowedTargets: [],
  };
  const res = await admin.call("superAdmin", "POST", IMPORT, { body: onlyAlpha });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const after = (await admin.call("superAdmin", "GET", EXPORT)).body;
  assert.deepEqual(after.groups.map((g: { name: string }) => g.name), ["Alpha imported", "Beta"]);
  assert.deepEqual(after.routes.map((r: { id: string }) => r.id), ["only"]);
  assert.deepEqual(after.fragments, []);
  const betaAfter = await admin.call("superAdmin", "GET", "/admin/api/groups/beta/targets");
  assert.deepEqual(betaAfter.body, betaBefore.body);
  const webhook = await admin.call("owner", "GET", "/admin/api/groups/alpha/webhook");
  assert.equal(webhook.body.enabled, true, "an imported group without a secret keeps its own");
});

Deno.test("config: a document exported with a digest threshold of 0 imports it as 1", async () => {
  const { admin } = await populatedInstance();
  await using _a = admin;
  const document = (await admin.call("superAdmin", "GET", EXPORT)).body;
  const older = {
    ...document,
    routes: [{ ...document.routes[0], digest: { windowSeconds: 600, threshold: 0 } }],
  };
  const res = await admin.call("superAdmin", "POST", IMPORT, { body: older });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const after = (await admin.call("superAdmin", "GET", EXPORT)).body;
  assert.deepEqual(after.routes[0].digest, { windowSeconds: 600, threshold: 1 });
});
