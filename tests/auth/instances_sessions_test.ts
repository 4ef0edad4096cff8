/**
 * Sessions, OAuth states, invites and chat link states (Telegram and Discord) live in the store, so they work
 * whichever instance answers: two app instances on two handles of one KV file, each request
 * of a flow answered by the other instance than the one before.
 */
import assert from "node:assert/strict";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { getDiscordLink, getTelegramLink } from "../../lib/store/auth/links.ts";
import { APP_ID, command, DISCORD_USER, GRACE } from "../discord_app.ts";
import { discordKeys, signatureHeaders, startFakeDiscordWebhooks } from "../discord_fake.ts";
import type { TestApp } from "../_helpers.ts";
import { continueLink, linkCallback } from "../_chat_link_helpers.ts";
import { sharedStore, startInstanceApp } from "../_instances_helpers.ts";
import {
  ALICE,
  ALICE_GITHUB,
  messageUpdate,
  SECRET,
  sendUpdate,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";
import { githubEnv, sessionCookieOf, startFakeGitHub, startSignIn } from "../fake_github.ts";
import { startFakeBot } from "../telegram_fake_bot.ts";

const ADA = { id: 101, login: "ada" };
const BOB = { id: 202, login: "bob" };
const HTML = { accept: "text/html" };

/** Finishes on `instance` a sign-in started elsewhere; answers the session cookie. */
async function callback(
  instance: TestApp,
  started: { state: string; cookie: string | null },
  code: string,
): Promise<string> {
  const res = await instance.fetch(`/auth/github/callback?code=${code}&state=${started.state}`, {
    headers: { ...HTML, ...(started.cookie ? { cookie: started.cookie } : {}) },
  });
  await res.body?.cancel();
  assert.equal(res.status, 302, "the sign-in completes on the other instance");
  const cookie = sessionCookieOf(res);
  assert.ok(cookie, "a session cookie is set");
  return cookie;
}

/** The status of the console's groups page on `instance` for `cookie`. */
async function groupsPageStatus(instance: TestApp, cookie: string): Promise<number> {
  const res = await instance.fetch("/admin/groups", { headers: { ...HTML, cookie } });
  await res.body?.cancel();
  return res.status;
}

Deno.test("sign-in started on A completes on B; the session works on A; signing out on B ends it on A", async () => {
  await using store = await sharedStore();
  await using github = startFakeGitHub();
  const env = githubEnv(github, { ADMIN_USER_IDS: String(ADA.id) });
  await using a = await startInstanceApp(store, env);
  await using b = await startInstanceApp(store, env);

  const started = await startSignIn(a, "/admin/login");
  const cookie = await callback(b, started, github.issueCode(ADA));
  assert.equal(await groupsPageStatus(a, cookie), 200, "A accepts the session B made");
  assert.equal(await groupsPageStatus(b, cookie), 200);

  const replay = await a.fetch(
    `/auth/github/callback?code=${github.issueCode(ADA)}&state=${started.state}`,
    { headers: { ...HTML, ...(started.cookie ? { cookie: started.cookie } : {}) } },
  );
  await replay.body?.cancel();
  assert.equal(sessionCookieOf(replay), null, "the state B used up is gone on A too");

  const confirm = await b.fetch("/admin/logout", {
    headers: { ...HTML, cookie, "sec-fetch-site": "cross-site" },
  });
  const csrf = (await confirm.text()).match(/name="csrf_token" value="([^"]+)"/)?.[1];
  assert.ok(csrf);
  const logout = await b.fetch("/admin/logout", {
    method: "POST",
    headers: { ...HTML, cookie, origin: "http://localhost:8000" },
    body: new URLSearchParams({ csrf_token: csrf }),
    redirect: "manual",
  });
  await logout.body?.cancel();
  assert.ok(logout.status < 400, `sign-out answered ${logout.status}`);
  assert.equal(await groupsPageStatus(a, cookie), 302, "A no longer accepts the ended session");
});

Deno.test("an invite created on A is accepted on B", async () => {
  await using store = await sharedStore();
  await using github = startFakeGitHub();
  const env = githubEnv(github, { ADMIN_USER_IDS: String(ADA.id) });
  await using a = await startInstanceApp(store, env);
  await using b = await startInstanceApp(store, env);
  await putGroup(a.kv, {
    id: "alpha",
    name: "Alpha",
    members: [{ userId: String(ADA.id), login: ADA.login, role: "owner" }],
  });
  const adaCookie = await callback(b, await startSignIn(a, "/admin/login"), github.issueCode(ADA));
  const created = await a.fetch("/admin/api/groups/alpha/invites", {
    method: "POST",
    headers: { cookie: adaCookie, "content-type": "application/json" },
    body: JSON.stringify({ role: "viewer" }),
  });
  assert.equal(created.status, 201);
  const { token } = await created.json();

  const invitePath = `/admin/invite?token=${encodeURIComponent(token)}`;
  const signIn = `/admin/login?redirect=${encodeURIComponent(invitePath)}`;
  const bobCookie = await callback(a, await startSignIn(b, signIn), github.issueCode(BOB));
  const page = await b.fetch(invitePath, {
    headers: { ...HTML, cookie: bobCookie },
  });
  assert.equal(page.status, 200);
  const csrf = (await page.text()).match(/name="csrf_token" value="([^"]+)"/)?.[1];
  assert.ok(csrf);
  const accepted = await b.fetch("/admin/invite", {
    method: "POST",
    headers: { cookie: bobCookie, origin: "http://localhost:8000" },
    body: new URLSearchParams({ token, csrf_token: csrf }),
    redirect: "manual",
  });
  await accepted.body?.cancel();
  assert.equal(accepted.status, 303);
  const members = (await getGroup(a.kv, "alpha"))?.members;
  assert.deepEqual(members?.find((m) => m.userId === String(BOB.id)), {
    userId: String(BOB.id),
    login: BOB.login,
    role: "viewer",
  });
  assert.equal(await groupsPageStatus(a, bobCookie), 200, "A lets the new viewer in");
});

Deno.test("a Telegram link started on A (/gh login) completes on B", async () => {
  await using store = await sharedStore();
  await using github = startFakeGitHub();
  await using bot = startFakeBot();
  const env = {
    ...githubEnv(github),
    TELEGRAM_BOT_TOKEN: "123456:test-token",
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_URL: bot.url,
    BASE_URL: "https://relay.example",
  };
  await using a = await startInstanceApp(store, env);
  await using b = await startInstanceApp(store, env);

  await sendUpdate(a, messageUpdate(textMessage("/gh login", { chatId: ALICE, userId: ALICE })));
  const link = new URL(textsTo(bot, ALICE)[0].match(/https?:\/\/\S+/)![0]);
  const { state, cookie, html } = await continueLink(b, link.href);
  assert.match(html, />@alice</, "B shows the link page of A's request");
  const res = await linkCallback(a, state, github.issueCode(ALICE_GITHUB), {
    accept: "application/json",
    cookie,
  });
  await res.body?.cancel();
  assert.equal(res.status, 200, "A takes the state B signed");
  const linked = await getTelegramLink(a.kv, String(ALICE));
  assert.equal(linked?.login, ALICE_GITHUB.login, "A reads the link B saved");
  assert.equal(linked?.userId, String(ALICE_GITHUB.id));
});

Deno.test("a Discord link started on A (/gh link) completes on B, which confirms it in Discord", async () => {
  await using store = await sharedStore();
  await using github = startFakeGitHub();
  await using hooks = startFakeDiscordWebhooks();
  const keys = await discordKeys();
  const env = {
    ...githubEnv(github),
    DISCORD_PUBLIC_KEY: keys.publicKeyHex,
    DISCORD_APPLICATION_ID: APP_ID,
    DISCORD_API_URL: hooks.url,
  };
  await using a = await startInstanceApp(store, env);
  await using b = await startInstanceApp(store, env);

  const linkCommand = command("link");
  const text = JSON.stringify(linkCommand);
  const answer = await a.fetch("/discord/interactions", {
    method: "POST",
    headers: await signatureHeaders(keys, text),
    body: text,
  });
  assert.equal(answer.status, 200);
  const { data } = await answer.json() as { data: { content: string } };
  const url = new URL(data.content.match(/https?:\/\/\S+/)![0]);
  const { state, cookie } = await continueLink(b, url.href);
  const res = await linkCallback(a, state, github.issueCode(GRACE), {
    accept: "application/json",
    cookie,
  });
  assert.deepEqual(await res.json(), { ok: true, discordUserId: DISCORD_USER, login: "grace" });
  assert.equal((await getDiscordLink(a.kv, DISCORD_USER))?.login, "grace", "A reads B's link");
  const [confirmation] = hooks.callsFor(String(linkCommand.token));
  assert.match(String(confirmation?.body.content), /acts on GitHub as grace/);
});
