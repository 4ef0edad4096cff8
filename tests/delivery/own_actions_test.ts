/**
 * "Not my own": a person's `skipOwnActions` setting (`/admin/api/me/preferences`, audited) keeps
 * the GitHub events they caused out of the Telegram private chat linked to their account, while
 * shared chats still get every event.
 */
import assert from "node:assert/strict";
import { listAuditEntries, newAuditEntry } from "../../lib/store/telemetry/audit.ts";
import { saveTelegramLink } from "../../lib/store/auth/links.ts";
import { saveUserPreferences } from "../../lib/store/auth/user_preferences.ts";
import { startFakeTelegram } from "../../testing/fake_chat.ts";
import { PEOPLE, startAdminApp } from "../_admin_helpers.ts";
import { runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { startTestApp } from "../_helpers.ts";
import { fixture, githubRequest, jsonBytes, SECRETS } from "../_ingest_helpers.ts";

const PREFERENCES = "/admin/api/me/preferences";

Deno.test("preferences: each person reads and sets their own, audited; bad bodies are 400", async () => {
  await using app = await startAdminApp();
  assert.deepEqual((await app.call("viewer", "GET", PREFERENCES)).body, { skipOwnActions: false });
  const set = await app.call("viewer", "PUT", PREFERENCES, { body: { skipOwnActions: true } });
  assert.equal(set.status, 200);
  assert.deepEqual(set.body, { skipOwnActions: true });
  assert.deepEqual((await app.call("viewer", "GET", PREFERENCES)).body, { skipOwnActions: true });
  assert.deepEqual((await app.call("admin", "GET", PREFERENCES)).body, { skipOwnActions: false });
  const [entry] = await listAuditEntries(app.kv);
  assert.equal(entry.action, "preferences.update");
  assert.deepEqual(entry.actor, PEOPLE.viewer);
  assert.deepEqual(entry.detail, { skipOwnActions: true });

  const bad = await app.call("viewer", "PUT", PREFERENCES, { body: { skipOwnActions: "yes" } });
  assert.deepEqual([bad.status, bad.body], [400, { error: "skipOwnActions: expected boolean" }]);
  const extra = await app.call("viewer", "PUT", PREFERENCES, {
    body: { skipOwnActions: true, userId: PEOPLE.admin.userId },
  });
  assert.deepEqual([extra.status, extra.body], [400, { error: 'unknown key "userId"' }]);
  assert.equal((await app.call("none", "GET", PREFERENCES)).status, 401);
});

Deno.test("delivery: a person who skips their own actions does not get them in their private chat", async () => {
  await using telegram = startFakeTelegram();
  await using app = await startTestApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    TELEGRAM_BOT_TOKEN: "123456:test-token",
    TELEGRAM_API_URL: telegram.url,
  });
  await storeRoutes(app.kv, [{
    id: "prs",
    name: "PRs",
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: "pull_request" }],
    targets: [
      { platform: "telegram", chatId: "5001" },
      { platform: "telegram", chatId: "-100333" },
    ],
  }]);
  await saveTelegramLink(app.kv, {
    telegramUserId: "5001",
    userId: "42",
    login: "octo",
    linkedAt: 0,
  });
  await using _worker = runWorker(app.kv, app.config);
  const payload = JSON.parse(
    new TextDecoder().decode(await fixture("pull_request/opened.payload.json")),
  );
  const send = async (delivery: string, senderId: number) => {
    payload.sender.id = senderId;
    const response = await app.app.fetch(
      await githubRequest(jsonBytes(payload), { delivery }),
    );
    assert.equal(response.status, 200);
  };
  const chatsOf = (logs: { target: unknown }[]) =>
    logs.map((log) => (log.target as { chatId: string }).chatId).sort();

  await send("before", 42);
  assert.deepEqual(chatsOf(await settled(app.kv, "before", 2)), ["-100333", "5001"]);

  await saveUserPreferences(
    app.kv,
    "42",
    { skipOwnActions: true },
    newAuditEntry({ actor: { userId: "42", login: "octo" }, action: "preferences.update" }, 0),
  );
  await send("own", 42);
  assert.deepEqual(chatsOf(await settled(app.kv, "own", 1)), ["-100333"]);
  await send("someone-else", 43);
  assert.deepEqual(chatsOf(await settled(app.kv, "someone-else", 2)), ["-100333", "5001"]);
  assert.equal(
    telegram.received.filter((message) => message.chat === "5001").length,
    2,
    "the private chat got the event before the setting and the other person's event",
  );
});
