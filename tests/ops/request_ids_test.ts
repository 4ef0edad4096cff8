/**
 * Ids and names from requests are bounded before they reach KV: an oversized or malformed id in
 * any path, query, form or webhook header is a 4xx, never a 500, and a webhook that is
 * acknowledged can always be delivered.
 */
import assert from "node:assert/strict";
import { ADMIN_ENDPOINTS } from "../../lib/admin/endpoints.ts";
import { ID_FORMATS, isId } from "../../lib/ids.ts";
import { signCustomBody } from "../../lib/providers/custom.ts";
import { createSession } from "../../lib/store/auth/sessions.ts";
import { PEOPLE, startAdminApp } from "../_admin_helpers.ts";
import { startTestApp } from "../_helpers.ts";
import { runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { githubEnv, signIn, startFakeGitHub } from "../fake_github.ts";
import {
  githubRequest,
  jsonBytes,
  keysUnder,
  SECRETS,
  send,
  testDeps,
  webhookRequest,
  withKv,
} from "../_ingest_helpers.ts";

const LONG = "a".repeat(3000);
const ORIGIN = "http://localhost:8000";

Deno.test("ids: a 3,000-character id in every admin API path answers 400 naming it", async () => {
  await using app = await startAdminApp();
  const withIds = Object.values(ADMIN_ENDPOINTS).filter((e) => e.path.includes("{"));
  assert.ok(withIds.length >= 14);
  for (const endpoint of withIds) {
    const path = endpoint.path.replaceAll(/\{\w+\}/g, LONG);
    for (const caller of ["superAdmin", "viewer"] as const) {
      const res = await app.call(caller, endpoint.method, path, {
        body: endpoint.body ? {} : undefined,
      });
      const label = `${caller} ${endpoint.method} ${endpoint.path}`;
      assert.equal(res.status, 400, label);
      assert.match(
        res.body.error,
        /^(id|token|deliveryId|eventId|replayId|reminderId): must be /,
        label,
      );
    }
  }
});

Deno.test("ids: malformed but short ids are refused too; well-formed unknown ones are 404", async () => {
  await using app = await startAdminApp();
  const cases: [string, string, number][] = [
    ["GET", "/admin/api/groups/Alpha/routes", 400],
    ["GET", "/admin/api/groups/al%20pha/routes", 400],
    ["GET", "/admin/api/groups/nope/routes", 404],
    ["GET", "/admin/api/logs/nope", 400],
    ["GET", `/admin/api/logs/${"0".repeat(26)}-abc`, 404],
    ["DELETE", "/admin/api/invites/short", 400],
    ["DELETE", `/admin/api/invites/${"x".repeat(43)}`, 404],
    ["GET", `/admin/api/delivery/${"d".repeat(201)}`, 400],
    ["GET", "/admin/api/delivery/unknown-delivery", 404],
  ];
  for (const [method, path, status] of cases) {
    const res = await app.call("superAdmin", method, path);
    assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.body)}`);
  }
});

Deno.test("ids: /webhook/:groupId with a 3,000-character id is an unknown group", async () => {
  await using t = await startTestApp();
  const res = await t.fetch(`/webhook/${LONG}`, {
    method: "POST",
    headers: { "x-github-event": "push", "content-type": "application/json" },
    body: "{}",
  });
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "Unknown group webhook" });
});

Deno.test("ids: DELETE /auth/token/:userId takes only a numeric GitHub user id", async () => {
  await using app = await startAdminApp();
  for (const userId of [LONG, "debug", "0", "1e3"]) {
    const res = await app.call("superAdmin", "DELETE", `/auth/token/${userId}`, {
      headers: { origin: ORIGIN },
    });
    assert.equal(res.status, 400, userId);
    assert.deepEqual(res.body, { error: "userId: must be a numeric GitHub user id" });
  }
  const ok = await app.call("superAdmin", "DELETE", "/auth/token/123", {
    headers: { origin: ORIGIN },
  });
  assert.deepEqual(ok.body, { ok: true });
});

Deno.test("ids: the invite page and its form refuse a malformed token with 400", async () => {
  await using app = await startAdminApp();
  const { sessionId, session } = await createSession(app.kv, PEOPLE.stranger);
  const cookie = `switchyard_session=${sessionId}`;
  const page = await app.t.fetch(`/admin/invite?token=${LONG}`, {
    headers: { cookie, accept: "text/html" },
  });
  assert.equal(page.status, 400);
  assert.match(await page.text(), /incomplete or malformed/);
  const form = await app.t.fetch("/admin/invite", {
    method: "POST",
    headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: LONG, csrf_token: session.csrfToken }),
  });
  assert.equal(form.status, 400);
  assert.match(await form.text(), /incomplete or malformed/);
});

Deno.test("ids: the formats accept what Switchyard issues and refuse the rest", () => {
  const table: [format: Parameters<typeof isId>[0], value: string | undefined, valid: boolean][] = [
    ["sendLog", "01JQ8Z6W9RZC4W0N1YH1XK5Q2M-0a1b2c3d4e", true],
    ["sendLog", "01JQ8Z6W9RZC4W0N1YH1XK5Q2M-0a1b2c3d4e".toLowerCase(), false],
    ["inviteToken", "A".repeat(42) + "_", true],
    ["inviteToken", "A".repeat(44), false],
    ["group", "a".repeat(64), true],
    ["group", "a".repeat(65), false],
    ["deliveryId", "~".repeat(200), true],
    ["deliveryId", "~".repeat(201), false],
    ["deliveryId", "has space", false],
    ["deliveryId", "caf\u00e9", false],
    ["group", undefined, false],
    ["group", "constructor!", false],
  ];
  for (const [format, value, valid] of table) {
    assert.equal(isId(format, value), valid, `${format}: ${value?.slice(0, 40)}`);
  }
  for (const format of Object.values(ID_FORMATS)) assert.ok(format.pattern.source.startsWith("^"));
});

Deno.test("ids: a delivery id over 200 characters is refused before anything is stored", async () => {
  await withKv(async (kv) => {
    const body = jsonBytes({ action: "opened" });
    for (const delivery of [LONG, "d".repeat(201), "two words"]) {
      const answer = await send(testDeps(kv), await githubRequest(body, { delivery }));
      assert.deepEqual(answer, {
        status: 400,
        body: { error: "Invalid delivery id: at most 200 printable ASCII characters" },
      });
    }
    assert.deepEqual(await keysUnder(kv, ["events"]), []);
  });
});

Deno.test("ids: an action over 64 characters is 400 Invalid event, not 500", async () => {
  await withKv(async (kv) => {
    for (const action of ["x".repeat(70_000), "x".repeat(65)]) {
      const body = jsonBytes({ action, text: "hi" });
      const request = webhookRequest(body, {
        "x-switchyard-signature": await signCustomBody(SECRETS.custom[0], body),
      });
      assert.deepEqual(await send(testDeps(kv), request), {
        status: 400,
        body: { error: "Invalid event" },
      });
    }
    assert.deepEqual(await keysUnder(kv, ["events"]), []);
    const body = jsonBytes({ action: "x".repeat(64) });
    const request = webhookRequest(body, {
      "x-switchyard-signature": await signCustomBody(SECRETS.custom[0], body),
    });
    assert.equal((await send(testDeps(kv), request)).status, 200);
  });
});

Deno.test("ids: a delivery id is either refused or accepted and delivered, never acknowledged and lost", async () => {
  await using discord = startFakeDiscord();
  await using app = await startTestApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    DISCORD_BOT_TOKEN: "test-bot-token",
    DISCORD_API_URL: discord.url,
  });
  await storeRoutes(app.kv, [{
    id: "pushes",
    name: "Pushes",
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: "push" }],
    targets: [{ platform: "discord", channelId: "4444" }],
  }]);
  await using _worker = runWorker(app.kv, app.config);
  const body = jsonBytes({ ref: "refs/heads/main", commits: [] });
  const outcomes: [number, number][] = [];
  for (const length of [1, 36, 200, 201, 3000]) {
    const delivery = "7".repeat(length);
    const res = await app.app.fetch(await githubRequest(body, { event: "push", delivery }));
    outcomes.push([length, res.status]);
    await res.body?.cancel();
    if (res.status === 200) {
      const [log] = await settled(app.kv, delivery, 1);
      assert.equal(log.status, "ok", `delivery id of ${length} characters`);
    } else assert.equal(res.status, 400);
  }
  assert.deepEqual(outcomes, [[1, 200], [36, 200], [200, 200], [201, 400], [3000, 400]]);
  assert.equal(discord.received.length, 3);
});

Deno.test("ids: the install binding form refuses a malformed group id", async () => {
  await using fake = startFakeGitHub();
  fake.installations.set(101, [{ id: 4242, account: { id: 101, login: "ada", type: "User" } }]);
  await using t = await startTestApp(githubEnv(fake));
  const installPage = "/auth/github/install?installation_id=4242";
  const { cookie } = await signIn(t, fake, { id: 101, login: "ada" }, installPage);
  const page = await t.fetch(installPage, {
    headers: { accept: "text/html", cookie: cookie! },
  });
  const csrf = (await page.text()).match(/name="csrf_token" value="([^"]+)"/)?.[1];
  assert.ok(csrf);
  const res = await t.fetch("/auth/github/install/bind", {
    method: "POST",
    headers: {
      cookie: cookie!,
      origin: ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ installation_id: "4242", group: LONG, csrf_token: csrf }),
  });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /^group: must be 1-64 lower-case/);
});
