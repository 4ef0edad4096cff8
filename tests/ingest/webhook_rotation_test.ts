/**
 * Rotating a group's webhook secret without dropping events: after regenerate the previous
 * secret keeps working for the grace period the owner chose, both show as active with their
 * last-used time, and the previous one can be revoked at once.
 */
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { handleWebhook } from "../../lib/ingest/handle.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { tenantKey } from "../../lib/store/keys.ts";
import { readGroupSecrets, regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { type AdminApp, startAdminApp } from "../_admin_helpers.ts";
import { NOW, testDeps, withKv } from "../_ingest_helpers.ts";

const HOUR_MS = 60 * 60 * 1000;
const BASE = "/admin/api/groups/alpha/webhook";

async function signedPush(secret: string): Promise<Request> {
  const body = utf8(JSON.stringify({ ref: "refs/heads/main", repository: { full_name: "a/b" } }));
  return new Request("http://localhost/webhook/alpha", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "push",
      "x-hub-signature-256": await signGithubBody(secret, body),
    },
    body,
  });
}

async function ingress(app: AdminApp, secret: string): Promise<number> {
  const request = await signedPush(secret);
  const res = await app.t.fetch("/webhook/alpha", {
    method: "POST",
    headers: request.headers,
    body: await request.arrayBuffer(),
  });
  await res.body?.cancel();
  return res.status;
}

Deno.test("rotation: after regenerate the old secret works during the grace period and not after revoke; the new one works", async () => {
  await using app = await startAdminApp();
  const first = await app.call("owner", "POST", `${BASE}/regenerate`);
  assert.equal(first.status, 200);
  assert.equal(await ingress(app, first.body.secret), 200);

  const second = await app.call("owner", "POST", `${BASE}/regenerate`, {
    body: { graceSeconds: 3600 },
  });
  assert.equal(second.status, 200);
  assert.notEqual(second.body.secret, first.body.secret);
  const expiresAt = second.body.previousExpiresAt;
  assert.equal(typeof expiresAt, "number");
  assert.ok(Math.abs(expiresAt - (Date.now() + HOUR_MS)) < 60_000, "one hour of grace");
  assert.equal(await ingress(app, second.body.secret), 200, "the new secret works");
  assert.equal(await ingress(app, first.body.secret), 200, "the old one during its grace");

  const shown = await app.call("owner", "GET", BASE);
  assert.equal(shown.status, 200);
  assert.equal(shown.body.enabled, true);
  assert.equal(typeof shown.body.lastUsedAt, "number", "the new secret was used");
  assert.equal(shown.body.previous.expiresAt, expiresAt);
  assert.equal(typeof shown.body.previous.createdAt, "number");
  assert.equal(typeof shown.body.previous.lastUsedAt, "number", "the old one too");
  assert.equal(JSON.stringify(shown.body).includes(first.body.secret), false);

  const revoked = await app.call("owner", "DELETE", `${BASE}/previous`);
  assert.deepEqual([revoked.status, revoked.body], [200, { ok: true }]);
  assert.equal(await ingress(app, first.body.secret), 401, "refused once revoked");
  assert.equal(await ingress(app, second.body.secret), 200);
  assert.equal((await app.call("owner", "GET", BASE)).body.previous, undefined);
  const again = await app.call("owner", "DELETE", `${BASE}/previous`);
  assert.equal(again.status, 404, "nothing left to revoke");

  const actions = (await listAuditEntries(app.kv, { groupId: "alpha" }))
    .map((entry) => entry.action);
  assert.deepEqual(actions.filter((action) => action.startsWith("webhook.")).sort(), [
    "webhook.regenerate",
    "webhook.regenerate",
    "webhook.revoke",
  ]);
});

Deno.test("rotation: the grace period defaults to 24 hours, 0 ends the old secret at once, and is bounded", async () => {
  await using app = await startAdminApp();
  const first = await app.call("owner", "POST", `${BASE}/regenerate`);
  const second = await app.call("owner", "POST", `${BASE}/regenerate`);
  assert.ok(Math.abs(second.body.previousExpiresAt - (Date.now() + 24 * HOUR_MS)) < 60_000);
  assert.equal(await ingress(app, first.body.secret), 200);

  const third = await app.call("owner", "POST", `${BASE}/regenerate`, {
    body: { graceSeconds: 0 },
  });
  assert.equal(third.body.previousExpiresAt, undefined);
  assert.equal(await ingress(app, second.body.secret), 401, "no grace: the old one stops");
  assert.equal(await ingress(app, first.body.secret), 401, "an older one is gone too");
  assert.equal(await ingress(app, third.body.secret), 200);

  for (const graceSeconds of [-1, 7 * 24 * 3600 + 1, 1.5, "60"]) {
    const refused = await app.call("owner", "POST", `${BASE}/regenerate`, {
      body: { graceSeconds },
    });
    assert.equal(refused.status, 400, String(graceSeconds));
    assert.match(refused.body.error, /graceSeconds/);
  }
  assert.equal(await ingress(app, third.body.secret), 200, "a refused request changes nothing");
  const viewer = await app.call("viewer", "DELETE", `${BASE}/previous`);
  assert.equal(viewer.status, 403);
});

Deno.test("rotation: the previous secret is refused once its grace period has passed", async () => {
  await withKv(async (kv) => {
    await putGroup(kv, { id: "alpha", name: "Alpha", members: [] });
    const old = await regenerateGroupSecret(kv, "alpha", NOW);
    const fresh = await regenerateGroupSecret(kv, "alpha", NOW + 1, undefined, undefined, HOUR_MS);
    const at = (now: number) => testDeps(kv, { now: () => now });
    const status = async (secret: string, now: number) =>
      (await handleWebhook(at(now), await signedPush(secret), "alpha")).status;
    assert.equal(await status(old, NOW + HOUR_MS - 1), 200);
    assert.equal(await status(old, NOW + HOUR_MS + 1), 401);
    assert.equal(await status(fresh, NOW + HOUR_MS + 1), 200);
    const read = await readGroupSecrets(kv, "alpha", undefined, NOW + HOUR_MS + 1);
    assert.equal(read?.previous, undefined, "an expired secret is not shown");
  });
});

Deno.test("rotation: last-used is written at most once a minute per secret", async () => {
  await withKv(async (kv) => {
    await putGroup(kv, { id: "alpha", name: "Alpha", members: [] });
    const secret = await regenerateGroupSecret(kv, "alpha", NOW);
    const versionAt = async () => (await kv.get(tenantKey("alpha"))).versionstamp;
    const send = async (now: number) =>
      (await handleWebhook(testDeps(kv, { now: () => now }), await signedPush(secret), "alpha"))
        .status;
    const before = await versionAt();
    assert.equal(await send(NOW + 1_000), 200);
    const afterFirst = await versionAt();
    assert.notEqual(afterFirst, before, "the first use is recorded");
    for (let second = 2; second < 60; second += 5) {
      assert.equal(await send(NOW + second * 1_000), 200);
    }
    assert.equal(await versionAt(), afterFirst, "no write within the minute");
    assert.equal(
      (await readGroupSecrets(kv, "alpha", undefined, NOW))?.current.lastUsedAt,
      NOW + 1_000,
    );
    assert.equal(await send(NOW + 61_000), 200);
    assert.equal(
      (await readGroupSecrets(kv, "alpha", undefined, NOW))?.current.lastUsedAt,
      NOW + 61_000,
    );
  });
});
