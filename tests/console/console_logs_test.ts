/**
 * The console's send logs, audit and overview pages as a browser without JavaScript gets them:
 * GET forms filter, links page, and every page shows only the caller's groups. Also the logs
 * API's text search, which the page's search box uses.
 */
import assert from "node:assert/strict";
import { storeAuditEntry } from "../_admin_helpers.ts";
import {
  type AdminApp,
  type Caller,
  PEOPLE,
  sendLog,
  startAdminApp,
  storeSendLogs,
} from "../_admin_helpers.ts";

const NOW = Date.now();
const MINUTE = 60_000;
const LOGS = [
  sendLog(NOW - 9 * MINUTE, { deliveryId: "d-ok", repository: "octo-org/Website" }),
  sendLog(NOW - 8 * MINUTE, {
    deliveryId: "d-failed",
    platform: "telegram",
    target: { platform: "telegram", chatId: "-1001234567890", topicId: 7 },
    status: "failed",
    httpStatus: 400,
    error: "Bad Request: chat not found",
  }),
  sendLog(NOW - 7 * MINUTE, {
    deliveryId: "d-pr",
    event: "pull_request",
    action: "opened",
    routeId: "pr-route",
    messageId: "55501",
  }),
  sendLog(NOW - 6 * MINUTE, { deliveryId: "d-beta", groupId: "beta", routeId: "b1" }),
];

async function html(app: AdminApp, caller: Caller, path: string) {
  const answer = await app.call(caller, "GET", path, { headers: { accept: "text/html" } });
  return { status: answer.status, text: String(answer.body) };
}

/** The log ids of the rows of a logs page, in order. */
function rowIds(page: string): string[] {
  return [...page.matchAll(/data-testid="log-row" data-log-id="([^"]+)"/g)].map((m) => m[1]);
}

/** The `href` of the link with the given text. */
function linkTo(page: string, text: string): string | undefined {
  const match = new RegExp(`<a [^>]*href="([^"]+)"[^>]*>${text}</a>`).exec(page);
  return match?.[1].replaceAll("&amp;", "&");
}

Deno.test("logs API: q searches a log's ids, event, repository, target and error, in any case", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS);
  const deliveries = async (q: string) => {
    const answer = await app.call("viewer", "GET", `/admin/api/logs?q=${encodeURIComponent(q)}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.items.map((log: { deliveryId: string }) => log.deliveryId);
  };
  assert.deepEqual(await deliveries("CHAT NOT FOUND"), ["d-failed"]);
  assert.deepEqual(await deliveries("octo-org/website"), ["d-ok"]);
  assert.deepEqual(await deliveries("-1001234567890"), ["d-failed"]);
  assert.deepEqual(await deliveries("pull_request.opened"), ["d-pr"]);
  assert.deepEqual(await deliveries("55501"), ["d-pr"]);
  assert.deepEqual(await deliveries("d-pr"), ["d-pr"]);
  assert.deepEqual(await deliveries("pr-route"), ["d-pr"]);
  assert.deepEqual(await deliveries("d-beta"), [], "another group's log is not searched");
  const empty = await app.call("viewer", "GET", "/admin/api/logs?q=%20");
  assert.equal(empty.status, 400);
  assert.match(empty.body.error, /^q: /);
  const long = await app.call("viewer", "GET", `/admin/api/logs?q=${"x".repeat(101)}`);
  assert.equal(long.status, 400);
});

Deno.test("logs page: the GET form's filters apply, and a member sees only their groups", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS);
  const all = await html(app, "viewer", "/admin/logs");
  assert.equal(all.status, 200);
  assert.deepEqual(rowIds(all.text), [LOGS[2].id, LOGS[1].id, LOGS[0].id]);
  assert.match(all.text, /<form method="get" action="\/admin\/logs"/);
  const failed = await html(app, "viewer", "/admin/logs?status=failed&q=&group=alpha");
  assert.deepEqual(rowIds(failed.text), [LOGS[1].id]);
  assert.match(failed.text, /<option value="failed" selected/);
  const search = await html(app, "viewer", "/admin/logs?q=%20website%20");
  assert.deepEqual(rowIds(search.text), [LOGS[0].id]);
  assert.match(search.text, /value="website"/);
  const route = await html(app, "viewer", "/admin/logs?route=pr-route&platform=discord");
  assert.deepEqual(rowIds(route.text), [LOGS[2].id]);
  const event = await html(app, "viewer", "/admin/logs?event=pull_request.opened");
  assert.deepEqual(rowIds(event.text), [LOGS[2].id]);
  const beta = await html(app, "otherOwner", "/admin/logs");
  assert.deepEqual(rowIds(beta.text), [LOGS[3].id]);
  assert.doesNotMatch(beta.text, /d-failed|Website/);
});

Deno.test("logs page: days are whole UTC days, both included", async () => {
  await using app = await startAdminApp();
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  const start = Date.parse(`${day(NOW)}T00:00:00Z`);
  const logs = [
    sendLog(start - 1, { deliveryId: "yesterday-last" }),
    sendLog(start, { deliveryId: "today-first" }),
  ];
  await storeSendLogs(app.kv, logs);
  const yesterday = day(start - 1);
  const onlyYesterday = await html(app, "viewer", `/admin/logs?from=${yesterday}&to=${yesterday}`);
  assert.deepEqual(rowIds(onlyYesterday.text), [logs[0].id]);
  const fromToday = await html(app, "viewer", `/admin/logs?from=${day(start)}`);
  assert.deepEqual(rowIds(fromToday.text), [logs[1].id]);
});

Deno.test("logs page: 'Next page' carries the cursor, and 'Newest' leads back", async () => {
  await using app = await startAdminApp();
  const many = Array.from(
    { length: 60 },
    (_, i) => sendLog(NOW - (60 - i) * 1000, { deliveryId: `bulk-${i}`, status: "failed" }),
  );
  await storeSendLogs(app.kv, many);
  const first = await html(app, "viewer", "/admin/logs?status=failed");
  assert.equal(rowIds(first.text).length, 50);
  assert.equal(linkTo(first.text, "Newest"), undefined);
  const next = linkTo(first.text, "Next page");
  assert.ok(next?.startsWith("/admin/logs?status=failed&cursor="), next);
  const second = await html(app, "viewer", next!);
  const expected = many.map((log) => log.id).reverse();
  assert.deepEqual([...rowIds(first.text), ...rowIds(second.text)], expected);
  assert.equal(linkTo(second.text, "Next page"), undefined);
  assert.equal(linkTo(second.text, "Newest"), "/admin/logs?status=failed");
});

Deno.test("logs page: a filter the API refuses shows why, with the refusal's status", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS);
  const bad = await html(app, "viewer", "/admin/logs?status=lost");
  assert.equal(bad.status, 400);
  assert.match(bad.text, /role="alert"[^>]*>status: /);
  assert.deepEqual(rowIds(bad.text), []);
  const badDay = await html(app, "viewer", "/admin/logs?from=yesterday");
  assert.equal(badDay.status, 400);
  assert.match(badDay.text, /from: must be Unix milliseconds or an ISO-8601 time/);
  const other = await html(app, "viewer", "/admin/logs?group=beta");
  assert.equal(other.status, 403);
  assert.match(other.text, /You are not a member of group beta/);
  assert.deepEqual(rowIds(other.text), []);
});

Deno.test("log page: one log's detail for a reader; 403 for another group, 404 unknown, 400 malformed", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS);
  const failed = LOGS[1];
  const page = await html(app, "viewer", `/admin/logs/${failed.id}`);
  assert.equal(page.status, 200);
  assert.match(page.text, /Bad Request: chat not found/);
  assert.match(page.text, /<dt[^>]*>HTTP status<\/dt><dd[^>]*>400<\/dd>/);
  assert.doesNotMatch(page.text, /RedeliverButton/, "a viewer cannot send it again");
  assert.equal(
    linkTo(page.text, "Every message of this delivery"),
    "/admin/logs?delivery=d-failed",
  );
  const admin = await html(app, "admin", `/admin/logs/${failed.id}`);
  assert.match(admin.text, /data-island="console_logs_RedeliverButton"/);
  const pr = await html(app, "viewer", `/admin/logs/${LOGS[2].id}`);
  assert.doesNotMatch(pr.text, /RedeliverButton/, "a success is not sent again");
  assert.equal((await html(app, "otherOwner", `/admin/logs/${failed.id}`)).status, 403);
  assert.equal(
    (await html(app, "viewer", `/admin/logs/${failed.id.slice(0, 26)}-ffff`)).status,
    404,
  );
  assert.equal((await html(app, "viewer", "/admin/logs/nope")).status, 400);
});

Deno.test("log page: a Telegram message in a supergroup links to t.me; a Discord message shows its id", async () => {
  await using app = await startAdminApp();
  const telegram = sendLog(NOW - 1000, {
    platform: "telegram",
    target: { platform: "telegram", chatId: "-1001234567890" },
    messageId: "321",
  });
  const discord = sendLog(NOW - 500, { messageId: "112233445566778899" });
  await storeSendLogs(app.kv, [telegram, discord]);
  const tg = await html(app, "viewer", `/admin/logs/${telegram.id}`);
  assert.match(tg.text, /href="https:\/\/t\.me\/c\/1234567890\/321"/);
  const dc = await html(app, "viewer", `/admin/logs/${discord.id}`);
  assert.match(dc.text, /112233445566778899/);
  assert.doesNotMatch(dc.text, /discord\.com\/channels/);
});

Deno.test("audit page: actor, action family, group and day filters; a member sees only their groups", async () => {
  await using app = await startAdminApp();
  const t0 = NOW - 10_000;
  await storeAuditEntry(
    app.kv,
    { actor: PEOPLE.owner, action: "group.update", groupId: "alpha" },
    t0,
  );
  await storeAuditEntry(
    app.kv,
    { actor: PEOPLE.admin, action: "routes.replace", groupId: "alpha" },
    t0 + 1,
  );
  await storeAuditEntry(
    app.kv,
    { actor: PEOPLE.otherOwner, action: "routes.replace", groupId: "beta" },
    t0 + 2,
  );
  await storeAuditEntry(
    app.kv,
    {
      actor: PEOPLE.owner,
      action: "invite.create",
      groupId: "alpha",
      detail: { role: "viewer", expiresAt: Date.UTC(2030, 0, 2, 3, 4, 5) },
    },
    t0 + 3,
  );
  const actions = async (caller: Caller, query = "") => {
    const page = await html(app, caller, `/admin/audit${query}`);
    assert.equal(page.status, 200, page.text.slice(0, 200));
    return [...page.text.matchAll(/data-testid="audit-action">([^<]+)</g)].map((m) => m[1]);
  };
  assert.deepEqual(await actions("viewer"), ["invite.create", "routes.replace", "group.update"]);
  assert.deepEqual(await actions("otherOwner"), ["routes.replace"]);
  assert.deepEqual(await actions("viewer", "?actor=%40Olivia"), ["invite.create", "group.update"]);
  assert.deepEqual(await actions("superAdmin", "?action=routes."), [
    "routes.replace",
    "routes.replace",
  ]);
  assert.deepEqual(await actions("superAdmin", "?group=beta"), ["routes.replace"]);
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  assert.equal((await actions("viewer", `?from=${day(t0)}&to=${day(t0 + 3)}`)).length, 3);
  assert.equal((await actions("viewer", `?to=${day(t0 - 86_400_000)}`)).length, 0);
  const page = await html(app, "viewer", "/admin/audit");
  assert.match(page.text, /role: viewer, expires: 2030-01-02 03:04:05 UTC/);
  assert.doesNotMatch(page.text, /\b1\d{12}\b/, "no time in epoch milliseconds");
  const refused = await html(app, "viewer", "/admin/audit?group=beta");
  assert.equal(refused.status, 403);
});

Deno.test("audit page: a filter the API refuses shows why in the form's names; 50 entries a page", async () => {
  await using app = await startAdminApp();
  const bad = await html(app, "viewer", "/admin/audit?group=Not%20an%20id");
  assert.equal(bad.status, 400);
  assert.match(bad.text, /role="alert"[^>]*>group: /);
  const badDay = await html(app, "viewer", "/admin/audit?to=someday");
  assert.equal(badDay.status, 400);
  assert.match(badDay.text, /to: must be Unix milliseconds or an ISO-8601 time/);
  for (let i = 0; i < 55; i++) {
    await storeAuditEntry(
      app.kv,
      { actor: PEOPLE.owner, action: "group.update", groupId: "alpha" },
      NOW - (55 - i) * 1000,
    );
  }
  const rows = (page: string) => page.match(/data-testid="audit-action"/g)?.length ?? 0;
  const first = await html(app, "viewer", "/admin/audit?action=group.");
  assert.equal(rows(first.text), 50);
  assert.equal(linkTo(first.text, "Newest"), undefined);
  const next = linkTo(first.text, "Next page");
  assert.ok(next?.startsWith("/admin/audit?action=group.&cursor="), next);
  const second = await html(app, "viewer", next!);
  assert.equal(rows(second.text), 5);
  assert.equal(linkTo(second.text, "Newest"), "/admin/audit?action=group.");
});

Deno.test("overview: totals, per-day numbers, failures by platform and event, recent failures", async () => {
  await using app = await startAdminApp();
  const today = Date.parse(new Date(NOW).toISOString().slice(0, 10));
  const logs = LOGS.map((log, index) => {
    const at = Math.min(NOW, today + index);
    return sendLog(at, { ...log, id: sendLog(at).id, createdAt: at, updatedAt: at });
  });
  await storeSendLogs(app.kv, logs);
  const page = await html(app, "viewer", "/admin");
  assert.equal(page.status, 200);
  const value = (id: string) =>
    new RegExp(`data-testid="${id}"[^>]*>([^<]+)<`).exec(page.text)?.[1];
  assert.equal(value("total-delivered"), "2");
  assert.equal(value("total-failed"), "1");
  assert.equal(value("success-rate"), "66.7 %");
  assert.equal(value("recent-failures-count"), "1 failure in this period.");
  assert.match(page.text, /JSONPath tester/);
  const bars = [...page.text.matchAll(/<g data-day="([\d-]+)" data-rate="([\d.]+)"/g)];
  assert.deepEqual(bars.map((m) => m[2]), ["0.6667"]);
  assert.equal(page.text.match(/<rect data-day=/g)?.length, 6, "the other six days are empty");
  assert.match(page.text, new RegExp(`href="/admin/logs/${logs[1].id}"`));
  assert.match(page.text, /href="\/admin\/logs\?platform=telegram&amp;status=failed"/);
  const beta = await html(app, "otherOwner", "/admin");
  assert.match(beta.text, /data-testid="total-delivered"[^>]*>1</);
  assert.doesNotMatch(beta.text, /chat not found/);
  const refused = await html(app, "viewer", "/admin?group=beta");
  assert.equal(refused.status, 403);
  const month = await html(app, "viewer", "/admin?days=30");
  assert.equal(month.text.match(/<(?:rect|g) data-day=/g)?.length, 30);
});
