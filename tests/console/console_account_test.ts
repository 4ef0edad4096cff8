/**
 * The console's account page: linked chat accounts (only those linked to the person), unlinking
 * them, and the "not my own" setting, through form posts with the CSRF token.
 */
import assert from "node:assert/strict";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import {
  getDiscordLink,
  getTelegramLink,
  saveDiscordLink,
  saveTelegramLink,
} from "../../lib/store/auth/links.ts";
import { getUserPreferences } from "../../lib/store/auth/user_preferences.ts";
import { type AdminApp, type Caller, PEOPLE, startAdminApp } from "../_admin_helpers.ts";

const NOW = Date.now();

async function withLinks(): Promise<AdminApp> {
  const app = await startAdminApp();
  const olivia = { userId: PEOPLE.owner.userId, login: PEOPLE.owner.login, linkedAt: NOW };
  await saveDiscordLink(app.kv, { discordUserId: "400000000000000001", ...olivia });
  await saveTelegramLink(app.kv, { telegramUserId: "123456", ...olivia });
  // Someone else's link, and a chat user whose login index still names olivia but who now
  // acts as another account.
  await saveDiscordLink(app.kv, {
    discordUserId: "400000000000000002",
    userId: PEOPLE.viewer.userId,
    login: PEOPLE.viewer.login,
    linkedAt: NOW,
  });
  return app;
}

async function openPage(app: AdminApp, caller: Exclude<Caller, "none">, query = "") {
  const res = await app.t.fetch(`/admin/account${query}`, {
    headers: { cookie: await app.cookie(caller), accept: "text/html" },
  });
  const html = await res.text();
  return { status: res.status, html, csrf: html.match(/name="csrf_token" value="([^"]+)"/)?.[1] };
}

async function post(
  app: AdminApp,
  caller: Exclude<Caller, "none">,
  fields: Record<string, string>,
) {
  const res = await app.t.fetch("/admin/account", {
    method: "POST",
    headers: { cookie: await app.cookie(caller), origin: "http://localhost" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  await res.body?.cancel();
  return { status: res.status, location: res.headers.get("location") };
}

Deno.test("account page: lists only the chat accounts linked to the person, with the setting", async () => {
  await using app = await withLinks();
  const own = await openPage(app, "owner");
  assert.equal(own.status, 200);
  assert.match(own.html, /<h1[^>]*>Your account<\/h1>/);
  assert.match(own.html, /400000000000000001/);
  assert.match(own.html, /123456/);
  assert.doesNotMatch(own.html, /400000000000000002/);
  assert.doesNotMatch(own.html, /name="skipOwnActions"[^>]*checked/);

  const other = await openPage(app, "viewer");
  assert.match(other.html, /400000000000000002/);
  assert.doesNotMatch(other.html, /400000000000000001/);
  assert.match((await openPage(app, "admin")).html, /No Discord account is linked/);
});

Deno.test("account page: the setting is saved for the person and audited; a forged token changes nothing", async () => {
  await using app = await withLinks();
  const { csrf } = await openPage(app, "owner");
  assert.ok(csrf);
  const forged = await post(app, "owner", {
    csrf_token: "forged",
    intent: "preferences",
    skipOwnActions: "on",
  });
  assert.equal(forged.status, 403);
  assert.equal((await getUserPreferences(app.kv, PEOPLE.owner.userId)).skipOwnActions, false);

  const saved = await post(app, "owner", {
    csrf_token: csrf,
    intent: "preferences",
    skipOwnActions: "on",
  });
  assert.deepEqual(saved, { status: 303, location: "/admin/account?done=saved" });
  assert.equal((await getUserPreferences(app.kv, PEOPLE.owner.userId)).skipOwnActions, true);
  assert.equal((await getUserPreferences(app.kv, PEOPLE.viewer.userId)).skipOwnActions, false);
  const page = await openPage(app, "owner", "?done=saved");
  assert.match(page.html, /name="skipOwnActions"[^>]*checked/);
  assert.match(page.html, /Settings saved\./);

  await post(app, "owner", { csrf_token: csrf, intent: "preferences" });
  assert.equal((await getUserPreferences(app.kv, PEOPLE.owner.userId)).skipOwnActions, false);
  const entries = await listAuditEntries(app.kv);
  assert.deepEqual(
    entries.filter((entry) => entry.action === "preferences.update").map((entry) => entry.detail),
    [{ skipOwnActions: false }, { skipOwnActions: true }],
  );
});

Deno.test("account page: a person unlinks their own chat accounts, never someone else's", async () => {
  await using app = await withLinks();
  const { csrf } = await openPage(app, "owner");
  assert.ok(csrf);
  const unlink = (platform: string, chatUserId: string) =>
    post(app, "owner", { csrf_token: csrf, intent: "unlink", platform, chatUserId });

  assert.deepEqual(await unlink("discord", "400000000000000002"), {
    status: 303,
    location: "/admin/account?done=missing",
  });
  assert.ok(await getDiscordLink(app.kv, "400000000000000002"), "another person's link stays");

  assert.equal(
    (await unlink("discord", "400000000000000001")).location,
    "/admin/account?done=unlinked",
  );
  assert.equal(await getDiscordLink(app.kv, "400000000000000001"), null);
  assert.equal((await unlink("telegram", "123456")).location, "/admin/account?done=unlinked");
  assert.equal(await getTelegramLink(app.kv, "123456"), null);
  assert.equal((await unlink("telegram", "123456")).location, "/admin/account?done=missing");
  const unlinks = (await listAuditEntries(app.kv)).filter((entry) =>
    entry.action === "link.delete"
  );
  assert.deepEqual(
    unlinks.map(({ actor, target, detail }) => ({ actor, target, detail })),
    [
      {
        actor: PEOPLE.owner,
        target: "telegram:123456",
        detail: { platform: "telegram", chatUserId: "123456", via: "console" },
      },
      {
        actor: PEOPLE.owner,
        target: "discord:400000000000000001",
        detail: { platform: "discord", chatUserId: "400000000000000001", via: "console" },
      },
    ],
    "each unlink is audited once, newest first; a refused one is not",
  );

  const malformed = await unlink("discord", "../x");
  assert.equal(malformed.status, 400);
  const page = await openPage(app, "owner");
  assert.match(page.html, /No Discord account is linked/);
  assert.match(page.html, /No Telegram account is linked/);
});
