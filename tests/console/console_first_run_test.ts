/**
 * First run and the console frame over HTTP: `/` leads to the console, the sign-in page says
 * what to set while GitHub sign-in is off, every console page names itself in `<title>`, the
 * header shows the person and only their own groups, and the overview's checklist ticks as
 * the instance is set up, within the person's groups only.
 */
import assert from "node:assert/strict";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { type Caller, route, sendLog, startAdminApp, storeSendLogs } from "../_admin_helpers.ts";
import { startTestApp } from "../_helpers.ts";

const HTML = { accept: "text/html" };
const CONSOLE_PAGES = [
  ["/admin", "Overview"],
  ["/admin/groups", "Groups"],
  ["/admin/logs", "Logs"],
  ["/admin/audit", "Audit"],
] as const;

/** The page `path` as `caller` sees it (HTML). */
async function pageAs(
  app: Awaited<ReturnType<typeof startAdminApp>>,
  caller: Exclude<Caller, "none">,
  path: string,
): Promise<string> {
  const res = await app.t.fetch(path, { headers: { ...HTML, cookie: await app.cookie(caller) } });
  assert.equal(res.status, 200, path);
  return await res.text();
}

/** The `data-done` flags of the checklist's steps, or null when there is no checklist. */
function checklist(html: string): string[] | null {
  if (!html.includes('data-testid="setup-checklist"')) return null;
  return [...html.matchAll(/<li[^>]*data-done="(true|false)"/g)].map((match) => match[1]);
}

/** The group switcher's options as `value=label`. */
function switcherOptions(html: string): string[] {
  const select = html.match(/<select id="group-switcher"[\s\S]*?<\/select>/)?.[0] ?? "";
  return [...select.matchAll(/<option(?: value="([^"]*)")?[^>]*>([^<]*)<\/option>/g)]
    .map((match) => `${match[1] ?? ""}=${match[2]}`);
}

Deno.test("first run: / leads to the console; /health answers as before", async () => {
  await using t = await startTestApp({ DEBUG_MODE: "true" });
  const root = await t.fetch("/", { headers: HTML, redirect: "manual" });
  assert.equal(root.status, 302);
  assert.equal(root.headers.get("location"), "/admin");
  const health = await t.fetch("/health");
  assert.deepEqual(await health.json(), { status: "ok" });
});

Deno.test("first run: without GitHub sign-in, the sign-in page names the settings and links nowhere", async () => {
  await using t = await startTestApp({ BASE_URL: "https://relay.example" });
  const guarded = await t.fetch("/admin/groups", { headers: HTML, redirect: "manual" });
  assert.equal(guarded.status, 302);
  const signIn = await t.fetch(guarded.headers.get("location")!, { headers: HTML });
  assert.equal(signIn.status, 503);
  assert.match(signIn.headers.get("content-type") ?? "", /^text\/html/);
  const html = await signIn.text();
  assert.match(html, /<title>Sign-in is not configured · Switchyard<\/title>/);
  assert.match(html, /GitHub sign-in is not configured/);
  for (
    const expected of [
      "GITHUB_CLIENT_ID",
      "GITHUB_CLIENT_SECRET",
      "BASE_URL",
      "ADMIN_USER_IDS",
      "login:&lt;name",
      "DEBUG_MODE=true",
      "https://relay.example/auth/github/callback",
    ]
  ) {
    assert.ok(html.includes(expected), expected);
  }
  const body = html.slice(html.indexOf("<body"));
  assert.deepEqual([...body.matchAll(/<a\s/g)], [], "no link: each would lead back here");

  const api = await t.fetch("/admin/login", { headers: { accept: "application/json" } });
  assert.equal(api.status, 503);
  assert.deepEqual(await api.json(), { error: "GitHub sign-in is not configured" });
});

Deno.test("layout: every console page names itself in <title> and marks its tab", async () => {
  await using app = await startAdminApp();
  for (const [path, title] of CONSOLE_PAGES) {
    const html = await pageAs(app, "owner", path);
    const head = html.slice(0, html.indexOf("</head>"));
    const titles = [...head.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => match[1]);
    assert.deepEqual(titles, [`${title} · Switchyard`], path);
    assert.match(html, new RegExp(`aria-current="page"[^>]*>${title}</a>`), path);
  }
});

Deno.test("layout: the header shows the person and a switcher of their own groups only", async () => {
  await using app = await startAdminApp();
  const foreign = await app.t.fetch("/admin/logs?group=beta", {
    headers: { ...HTML, cookie: await app.cookie("owner") },
  });
  assert.equal(foreign.status, 403, "another group's logs are refused");
  assert.doesNotMatch(await foreign.text(), /Beta/, "another group's name never reaches the page");
  const owner = await pageAs(app, "owner", "/admin/groups?group=beta");
  assert.match(owner, /Signed in as<\/span><a href="\/admin\/account"[^>]*>olivia<\/a>/);
  assert.match(owner, /href="\/admin\/logout"/);
  assert.deepEqual(switcherOptions(owner), ["=All groups", "alpha=Alpha (alpha)"]);
  assert.doesNotMatch(owner, /Beta/, "another group's name never reaches the page");

  const chosen = await pageAs(app, "owner", "/admin/logs?group=alpha");
  assert.match(chosen, /<option value="alpha" selected>/);
  assert.match(chosen, /<form method="get" action="\/admin\/logs"/);

  const superAdmin = await pageAs(app, "superAdmin", "/admin/audit?group=beta");
  assert.deepEqual(switcherOptions(superAdmin), [
    "=All groups",
    "alpha=Alpha (alpha)",
    "beta=Beta (beta)",
  ]);
  assert.match(superAdmin, /<option value="beta" selected>/);
  assert.match(superAdmin, />super admin</);
});

Deno.test("first run: the checklist ticks each step, then goes once an event was delivered", async () => {
  await using app = await startAdminApp();
  const steps = async (caller: Exclude<Caller, "none">) =>
    checklist(await pageAs(app, caller, "/admin"));
  assert.deepEqual(await steps("owner"), ["true", "false", "false", "false"]);

  await regenerateGroupSecret(app.kv, "alpha");
  assert.deepEqual(await steps("owner"), ["true", "true", "false", "false"]);
  assert.deepEqual(await steps("otherOwner"), ["true", "false", "false", "false"]);

  assert.ok((await replaceRoutes(app.kv, [route("alpha", "a1")], null)).ok);
  assert.deepEqual(await steps("owner"), ["true", "true", "true", "false"]);
  assert.deepEqual(await steps("otherOwner"), ["true", "false", "false", "false"]);
  assert.deepEqual(await steps("superAdmin"), ["true", "true", "true", "false"]);

  await storeSendLogs(app.kv, [sendLog(Date.now())]);
  assert.equal(await steps("owner"), null);
  assert.equal(await steps("superAdmin"), null);
  assert.deepEqual(await steps("otherOwner"), ["true", "false", "false", "false"]);
});

Deno.test("first run: an empty instance shows the checklist with nothing done, linking to each step", async () => {
  await using t = await startTestApp({ DEBUG_MODE: "true" });
  const html = await (await t.fetch("/admin", { headers: HTML })).text();
  assert.deepEqual(checklist(html), ["false", "false", "false", "false"]);
  for (const step of ["Create a group", "Copy its webhook URL and secret", "Add a route"]) {
    assert.ok(html.includes(step), step);
  }
  assert.match(html, /Send a test event/);
  assert.match(html, /href="\/admin\/groups"/);
  assert.match(html, /href="\/admin\/logs"/);
  assert.match(html, /DEBUG_MODE/);
  assert.doesNotMatch(html, /href="\/admin\/logout"/, "nothing to sign out of in DEBUG_MODE");
  assert.doesNotMatch(html, /id="group-switcher"/, "no groups, no switcher");
  assert.match(html, /data-testid="no-deliveries"/, "no wall of empty charts");
  assert.doesNotMatch(html, /data-testid="success-chart"/);
});

Deno.test("layout: the invite result shows in the status region; unknown values show nothing", async () => {
  await using t = await startTestApp({ DEBUG_MODE: "true" });
  const joined = await (await t.fetch("/admin?invite=ok", { headers: HTML })).text();
  assert.match(joined, /role="status"[\s\S]*You joined the group\./);
  for (const value of ["constructor", "__proto__", "toString"]) {
    const res = await t.fetch(`/admin?invite=${value}`, { headers: HTML });
    assert.equal(res.status, 200);
    assert.doesNotMatch(await res.text(), /data-tone=/, value);
  }
});
