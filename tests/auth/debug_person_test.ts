/**
 * DEBUG_MODE's second person: a browser chooses a login on `/admin/debug-person` and is then
 * that person (no group, not a super admin) until it switches back, so invites and roles can
 * be tried on one machine. Without DEBUG_MODE the cookie means nothing.
 */
import assert from "node:assert/strict";
import { DEBUG_PERSON_COOKIE } from "../../lib/auth/debug_person.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { createInvite } from "../../lib/store/config/invites.ts";
import { startTestApp, type TestApp } from "../_helpers.ts";

const HTML = { accept: "text/html" };

async function choose(t: TestApp, login: string, cookie = "") {
  const page = await t.fetch("/admin/debug-person", { headers: { ...HTML, cookie } });
  assert.equal(page.status, 200);
  const csrf = (await page.text()).match(/name="csrf_token" value="([^"]+)"/)?.[1] ?? "";
  return await t.fetch("/admin/debug-person", {
    method: "POST",
    headers: { origin: "http://localhost", cookie },
    body: new URLSearchParams({ csrf_token: csrf, login }),
    redirect: "manual",
  });
}

Deno.test("debug person: a second browser acts as another person, joins by invite, and switches back", async () => {
  await using t = await startTestApp({ DEBUG_MODE: "true" });
  await putGroup(t.kv, { id: "web", name: "Web", members: [] });
  const invite = await createInvite(t.kv, {
    groupId: "web",
    role: "viewer",
    createdBy: { userId: "debug", login: "debug" },
  });

  const chosen = await choose(t, "alice");
  assert.equal(chosen.status, 303);
  const setCookie = chosen.headers.get("set-cookie") ?? "";
  assert.match(setCookie, new RegExp(`^${DEBUG_PERSON_COOKIE}=alice;.*HttpOnly`));
  assert.match(setCookie, /SameSite=Strict/);
  const cookie = `${DEBUG_PERSON_COOKIE}=alice`;

  const refused = await t.fetch("/admin/groups/web", {
    headers: { ...HTML, cookie },
    redirect: "manual",
  });
  await refused.body?.cancel();
  assert.notEqual(refused.status, 200, "alice is in no group yet");
  const offer = await t.fetch(`/admin/invite?token=${invite!.token}`, {
    headers: { ...HTML, cookie },
  });
  const html = await offer.text();
  assert.match(html, /Join Web/);
  const csrf = html.match(/name="csrf_token" value="([^"]+)"/)?.[1] ?? "";
  const joined = await t.fetch("/admin/invite", {
    method: "POST",
    headers: { origin: "http://localhost", cookie },
    body: new URLSearchParams({ token: invite!.token, csrf_token: csrf }),
    redirect: "manual",
  });
  await joined.body?.cancel();
  assert.equal(joined.status, 303);
  const member = await t.fetch("/admin/groups/web", { headers: { ...HTML, cookie } });
  assert.equal(member.status, 200);
  assert.match(await member.text(), />alice</);

  const back = await choose(t, "", cookie);
  assert.equal(back.status, 303);
  assert.match(back.headers.get("set-cookie") ?? "", /Max-Age=0/);
  const bad = await choose(t, "not a login!");
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
});

Deno.test("debug person: without DEBUG_MODE the page is not there and the cookie means nothing", async () => {
  await using t = await startTestApp({});
  const cookie = `${DEBUG_PERSON_COOKIE}=alice`;
  const page = await t.fetch("/admin/debug-person", {
    headers: { ...HTML, cookie },
    redirect: "manual",
  });
  await page.body?.cancel();
  assert.equal(page.status, 302, "nobody is signed in: sign-in first");
  assert.match(page.headers.get("location") ?? "", /^\/admin\/login/);
});
