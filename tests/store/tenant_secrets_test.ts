/**
 * Group webhook secrets at rest: sealed with TOKEN_ENCRYPTION_KEY like users'
 * tokens, plain without it, and plain records from before the key still work
 * (sealed on their first read).
 */
import assert from "node:assert/strict";
import { atRestWarning } from "../../lib/at_rest.ts";
import { utf8 } from "../../lib/encoding.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { tenantKey } from "../../lib/store/keys.ts";
import { getGroupSecret, regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { type AdminApp, startAdminApp } from "../_admin_helpers.ts";

const KEY = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));

async function ingress(app: AdminApp, secret: string): Promise<number> {
  const body = utf8(JSON.stringify({ ref: "refs/heads/main", repository: { full_name: "a/b" } }));
  const res = await app.t.fetch("/webhook/alpha", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "push",
      "x-hub-signature-256": await signGithubBody(secret, body),
    },
    body,
  });
  await res.body?.cancel();
  return res.status;
}

async function storedRecord(app: AdminApp): Promise<{ secret: string; createdAt: number }> {
  return (await app.kv.get<{ secret: string; createdAt: number }>(tenantKey("alpha"))).value!;
}

Deno.test("with TOKEN_ENCRYPTION_KEY, a group secret is stored sealed and still verifies", async () => {
  await using app = await startAdminApp({ TOKEN_ENCRYPTION_KEY: KEY });
  const { secret } = (await app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate"))
    .body;
  assert.match(secret, /^[0-9a-f]{64}$/);

  const stored = await storedRecord(app);
  assert.match(stored.secret, /^v1\.[\w-]{16}\.[\w-]+$/);
  assert.ok(!JSON.stringify(stored).includes(secret), "no plain secret in KV");
  assert.equal(await ingress(app, secret), 200);
  assert.equal(await ingress(app, "not-the-secret"), 401);
  const described = await app.call("owner", "GET", "/admin/api/groups/alpha/webhook");
  assert.equal(described.body.enabled, true);
  assert.equal(described.body.createdAt, stored.createdAt);
  assert.equal(await getGroupSecret(app.kv, "alpha"), null, "unreadable without the key");
});

Deno.test("without TOKEN_ENCRYPTION_KEY, a group secret is stored as it is and verifies", async () => {
  await using app = await startAdminApp();
  const { secret } = (await app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate"))
    .body;
  assert.equal((await storedRecord(app)).secret, secret);
  assert.equal(await ingress(app, secret), 200);
});

Deno.test("a plain group secret from before the key still verifies and is sealed on first read", async () => {
  await using app = await startAdminApp({ TOKEN_ENCRYPTION_KEY: KEY });
  const secret = await regenerateGroupSecret(app.kv, "alpha", 1_000);
  assert.ok(secret);
  assert.equal((await storedRecord(app)).secret, secret, "written before the key was set");

  assert.equal(await ingress(app, secret), 200);
  const stored = await storedRecord(app);
  assert.match(stored.secret, /^v1\./);
  assert.equal(stored.createdAt, 1_000);
  assert.deepEqual(await getGroupSecret(app.kv, "alpha", KEY), { secret, createdAt: 1_000 });
  assert.equal(await ingress(app, secret), 200);
});

Deno.test("start-up warns when stored credentials will not be encrypted", () => {
  assert.match(atRestWarning({})!, /TOKEN_ENCRYPTION_KEY is not set: .*webhook secrets/);
  assert.equal(atRestWarning({ tokenEncryptionKey: KEY }), null);
});
