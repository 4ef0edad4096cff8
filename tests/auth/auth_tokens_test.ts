import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { openToken, sealToken } from "../../lib/at_rest.ts";
import { usableUserToken } from "../../lib/auth/user_tokens.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { tokenKey, tokenReverseKey } from "../../lib/store/keys.ts";
import {
  deleteToken,
  findTokenOwner,
  getToken,
  keepUntilFor,
  saveToken,
  staleAtFor,
} from "../../lib/store/auth/tokens.ts";
import { startTestApp } from "../_helpers.ts";
import { githubEnv, signIn, startFakeGitHub } from "../fake_github.ts";
import { openTestKv } from "../../testing/test_store.ts";

const KEY = btoa(String.fromCharCode(...new Uint8Array(32).map((_, i) => i)));
const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;

/** The user id a token resolves to on the bearer API's reverse index, or null. */
async function tokenOwnerId(kv: Kv, token: string, now?: number): Promise<string | null> {
  return (await findTokenOwner(kv, token, now))?.userId ?? null;
}

Deno.test("token lifetime: stale at 90% of the lifetime, never sooner than 60 s", () => {
  assert.equal(staleAtFor(NOW + 8 * HOUR, NOW), NOW + 0.9 * 8 * HOUR);
  assert.equal(staleAtFor(NOW + 100_000, NOW), NOW + 90_000);
  assert.equal(staleAtFor(NOW + 60_000, NOW), NOW + 60_000);
  assert.equal(staleAtFor(NOW + 10_000, NOW), NOW + 60_000);
  assert.equal(staleAtFor(null, NOW), null);
});

Deno.test("token lifetime: the record is kept until stale, or until the refresh token expires", () => {
  const base = { userId: "1", login: "a", accessToken: "t" };
  assert.equal(keepUntilFor({ ...base, expiresAt: NOW + 10 * HOUR }, NOW), NOW + 9 * HOUR);
  assert.equal(keepUntilFor({ ...base, expiresAt: NOW + 1000 }, NOW), NOW + 60_000);
  assert.equal(keepUntilFor({ ...base, expiresAt: null }, NOW), null);
  const refreshable = {
    ...base,
    expiresAt: NOW + 8 * HOUR,
    refreshToken: "r",
    refreshTokenExpiresAt: NOW + 4000 * HOUR,
  };
  assert.equal(keepUntilFor(refreshable, NOW), NOW + 4000 * HOUR);
  assert.equal(keepUntilFor({ ...refreshable, refreshTokenExpiresAt: null }, NOW), null);
});

Deno.test("saveToken writes the reverse index and removes the old one in the same write", async () => {
  await using kv = await openTestKv();
  const user = { userId: "7", login: "grace", expiresAt: null };
  await saveToken(kv, { ...user, accessToken: "gho_first" });
  assert.equal(await tokenOwnerId(kv, "gho_first"), "7");
  await saveToken(kv, { ...user, accessToken: "gho_second" });
  assert.equal(await tokenOwnerId(kv, "gho_first"), null);
  assert.equal((await kv.get(tokenReverseKey(await sha256Hex("gho_first")))).versionstamp, null);
  assert.equal(await tokenOwnerId(kv, "gho_second"), "7");
  assert.equal((await getToken(kv, "7"))?.accessToken, "gho_second");

  assert.equal(await deleteToken(kv, "7"), true);
  assert.equal(await tokenOwnerId(kv, "gho_second"), null);
  assert.equal((await kv.get(tokenReverseKey(await sha256Hex("gho_second")))).versionstamp, null);
  assert.equal(await deleteToken(kv, "7"), false);
});

Deno.test("a token past its record lifetime is gone even before KV deletes it", async () => {
  await using kv = await openTestKv();
  const issued = Date.now();
  await saveToken(kv, { userId: "7", login: "g", accessToken: "ghu_x", expiresAt: issued + HOUR }, {
    now: issued,
  });
  assert.equal(await tokenOwnerId(kv, "ghu_x", issued + 0.9 * HOUR - 1), "7");
  assert.equal(await tokenOwnerId(kv, "ghu_x", issued + 0.9 * HOUR), null);
  assert.equal(await getToken(kv, "7", { now: issued + 0.9 * HOUR }), null);
});

Deno.test("with TOKEN_ENCRYPTION_KEY, tokens are stored sealed with AES-GCM", async () => {
  await using kv = await openTestKv();
  await saveToken(kv, {
    userId: "7",
    login: "g",
    accessToken: "ghu_secret",
    expiresAt: Date.now() + HOUR,
    refreshToken: "ghr_secret",
    refreshTokenExpiresAt: Date.now() + 100 * HOUR,
  }, { encryptionKey: KEY });
  const raw = (await kv.get<Record<string, string>>(tokenKey("7"))).value!;
  assert.match(raw.accessToken, /^v1\.[\w-]{16}\.[\w-]+$/);
  assert.match(raw.refreshToken, /^v1\./);
  assert.ok(!JSON.stringify(raw).includes("secret"));
  const token = await getToken(kv, "7", { encryptionKey: KEY });
  assert.equal(token?.accessToken, "ghu_secret");
  assert.equal(token?.refreshToken, "ghr_secret");
  assert.equal(await tokenOwnerId(kv, "ghu_secret"), "7");
  assert.equal(await getToken(kv, "7"), null);
  const otherKey = btoa(String.fromCharCode(...new Uint8Array(32).fill(9)));
  assert.equal(await getToken(kv, "7", { encryptionKey: otherKey }), null);
});

Deno.test("sealToken uses a fresh IV each time and detects tampering", async () => {
  const a = await sealToken("ghu_same", KEY);
  const b = await sealToken("ghu_same", KEY);
  assert.notEqual(a, b);
  assert.equal(await openToken(a, KEY), "ghu_same");
  const tampered = a.slice(0, -2) + (a.endsWith("A") ? "BB" : "AA");
  assert.equal(await openToken(tampered, KEY), null);
  assert.equal(await sealToken("plain", undefined), "plain");
});

Deno.test("a stale token is refreshed with its refresh token, swapping the reverse index", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { TOKEN_ENCRYPTION_KEY: KEY }));
  const pair = fake.issueTokens({ id: 7, login: "grace" });
  const longAgo = Date.now() - 10 * HOUR;
  await saveToken(t.kv, {
    userId: "7",
    login: "grace",
    accessToken: pair.accessToken,
    expiresAt: longAgo + 8 * HOUR,
    refreshToken: pair.refreshToken,
    refreshTokenExpiresAt: longAgo + 4000 * HOUR,
  }, { encryptionKey: KEY, now: longAgo });

  const token = await usableUserToken(t, "7");
  assert.ok(token);
  assert.notEqual(token.accessToken, pair.accessToken);
  assert.notEqual(token.refreshToken, pair.refreshToken);
  assert.ok(token.staleAt! > Date.now() + 7 * HOUR);
  const [refresh] = fake.requestsTo("/login/oauth/access_token");
  assert.deepEqual(refresh.body, {
    client_id: "Iv1.fakeclient",
    client_secret: "fake-client-secret",
    grant_type: "refresh_token",
    refresh_token: pair.refreshToken,
  });
  assert.equal(await tokenOwnerId(t.kv, pair.accessToken), null);
  assert.equal(await tokenOwnerId(t.kv, token.accessToken), "7");
  assert.equal((await usableUserToken(t, "7"))?.accessToken, token.accessToken);
  assert.equal(fake.requestsTo("/login/oauth/access_token").length, 1);
});

Deno.test("a stale token whose refresh GitHub refuses is not usable", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake));
  const longAgo = Date.now() - 10 * HOUR;
  await saveToken(t.kv, {
    userId: "7",
    login: "grace",
    accessToken: "ghu_old",
    expiresAt: longAgo + 8 * HOUR,
    refreshToken: "ghr_unknown",
    refreshTokenExpiresAt: longAgo + 4000 * HOUR,
  }, { now: longAgo });
  assert.equal(await usableUserToken(t, "7"), null);
});

Deno.test("DELETE /auth/token/:userId: the user themself or a super admin; audited", async () => {
  await using fake = startFakeGitHub();
  await using t = await startTestApp(githubEnv(fake, { ADMIN_USER_IDS: "login:root" }));
  await putGroup(t.kv, {
    id: "web",
    name: "Web",
    members: [
      { userId: "1", login: "ada", role: "owner" },
      { userId: "2", login: "bob", role: "viewer" },
    ],
  });
  const ada = await signIn(t, fake, { id: 1, login: "ada" });
  const bob = await signIn(t, fake, { id: 2, login: "bob" });
  const root = await signIn(t, fake, { id: 3, login: "root" });

  const anonymous = await t.fetch("/auth/token/1", { method: "DELETE" });
  assert.equal(anonymous.status, 401);
  assert.deepEqual(await anonymous.json(), { error: "Sign-in required" });

  const other = await t.fetch("/auth/token/1", {
    method: "DELETE",
    headers: { cookie: bob.cookie! },
  });
  assert.equal(other.status, 403);
  await other.body?.cancel();
  assert.ok(await getToken(t.kv, "1"));

  const crossSite = await t.fetch("/auth/token/1", {
    method: "DELETE",
    headers: { cookie: ada.cookie!, origin: "https://evil.example" },
  });
  assert.equal(crossSite.status, 403);
  await crossSite.body?.cancel();

  const self = await t.fetch("/auth/token/1", {
    method: "DELETE",
    headers: { cookie: ada.cookie!, origin: "http://localhost:8000" },
  });
  assert.equal(self.status, 200);
  assert.deepEqual(await self.json(), { ok: true });
  assert.equal(await getToken(t.kv, "1"), null);

  const admin = await t.fetch("/auth/token/2", {
    method: "DELETE",
    headers: { cookie: root.cookie! },
  });
  assert.deepEqual(await admin.json(), { ok: true });
  assert.equal(await getToken(t.kv, "2"), null);

  const revocations = (await listAuditEntries(t.kv)).filter((e) => e.action === "token.revoke");
  assert.deepEqual(revocations.map((e) => [e.actor.login, e.target]), [
    ["root", "user:2"],
    ["ada", "user:1"],
  ]);
});
