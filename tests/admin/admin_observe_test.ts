/** Send logs, deliveries, audit and metrics: filters, cursor pages and permission scope. */
import assert from "node:assert/strict";
import {
  type AdminApp,
  type Caller,
  PEOPLE,
  sendLog,
  startAdminApp,
  storeAuditEntry,
  storeSendLogs,
} from "../_admin_helpers.ts";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.now();
const LOGS = [
  sendLog(NOW - 5 * 60_000, { deliveryId: "d1" }),
  sendLog(NOW - 4 * 60_000, {
    deliveryId: "d1",
    platform: "telegram",
    target: { platform: "telegram", chatId: "-100" },
    status: "failed",
    error: "chat not found",
  }),
  sendLog(NOW - 3 * 60_000, {
    deliveryId: "d2",
    event: "pull_request",
    action: "opened",
    status: "dead",
  }),
  sendLog(NOW - 2 * 60_000, { deliveryId: "d3", routeId: "r2" }),
  sendLog(NOW - 1 * 60_000, { deliveryId: "d4", groupId: "beta", routeId: "b1" }),
  sendLog(NOW - 2 * DAY, { deliveryId: "d0" }),
];

async function ids(app: AdminApp, caller: Caller, query: string): Promise<string[]> {
  const answer = await app.call(caller, "GET", `/admin/api/logs?${query}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.items.map((log: { deliveryId: string; platform: string }) => log.deliveryId);
}

Deno.test("logs: filters, newest first, scoped to the caller's groups", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS);
  assert.deepEqual(await ids(app, "superAdmin", ""), ["d4", "d3", "d2", "d1", "d1", "d0"]);
  assert.deepEqual(await ids(app, "viewer", ""), ["d3", "d2", "d1", "d1", "d0"]);
  assert.deepEqual(await ids(app, "otherOwner", ""), ["d4"]);
  assert.deepEqual(await ids(app, "viewer", "groupId=alpha&routeId=r2"), ["d3"]);
  assert.deepEqual(await ids(app, "viewer", "status=failed"), ["d1"]);
  assert.deepEqual(await ids(app, "viewer", "platform=telegram"), ["d1"]);
  assert.deepEqual(await ids(app, "viewer", "event=pull_request.opened"), ["d2"]);
  assert.deepEqual(await ids(app, "viewer", "event=push&groupId=alpha"), ["d3", "d1", "d1", "d0"]);
  assert.deepEqual(await ids(app, "superAdmin", "deliveryId=d1"), ["d1", "d1"]);
  assert.deepEqual(await ids(app, "superAdmin", `from=${NOW - DAY}`), [
    "d4",
    "d3",
    "d2",
    "d1",
    "d1",
  ]);
  const to = new Date(NOW - 150_000).toISOString();
  assert.deepEqual(await ids(app, "superAdmin", `from=${NOW - DAY}&to=${to}`), ["d2", "d1", "d1"]);
});

Deno.test("logs: cursor pages walk every log once", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS);
  const seen: string[] = [];
  let cursor: string | undefined;
  const pageSizes: number[] = [];
  do {
    const query = `limit=2${cursor ? `&cursor=${cursor}` : ""}`;
    const answer = await app.call("superAdmin", "GET", `/admin/api/logs?${query}`);
    seen.push(...answer.body.items.map((log: { id: string }) => log.id));
    cursor = answer.body.cursor;
    pageSizes.push(answer.body.items.length);
  } while (cursor);
  assert.deepEqual(seen, LOGS.map((log) => log.id).sort().reverse());
  // A full page always carries a cursor, so the last of six logs at two a page is followed by
  // an empty page without one.
  assert.deepEqual(pageSizes, [2, 2, 2, 0]);
});

Deno.test("logs: one log and one delivery, within the caller's groups", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS);
  const one = await app.call("viewer", "GET", `/admin/api/logs/${LOGS[1].id}`);
  assert.deepEqual(one.body, LOGS[1]);
  assert.equal((await app.call("viewer", "GET", `/admin/api/logs/${LOGS[4].id}`)).status, 403);
  const unknown = `${LOGS[1].id.slice(0, 26)}-ffff`;
  assert.equal((await app.call("viewer", "GET", `/admin/api/logs/${unknown}`)).status, 404);
  assert.equal((await app.call("viewer", "GET", "/admin/api/logs/nope")).status, 400);
  const delivery = await app.call("admin", "GET", "/admin/api/delivery/d1");
  assert.deepEqual(delivery.body, { deliveryId: "d1", items: [LOGS[0], LOGS[1]] });
  assert.equal((await app.call("otherOwner", "GET", "/admin/api/delivery/d1")).status, 404);
});

Deno.test("audit: filters by group, action and actor, with cursor pages, scoped to groups", async () => {
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
  await storeAuditEntry(app.kv, { actor: PEOPLE.superAdmin, action: "session.login" }, t0 + 3);
  await storeAuditEntry(
    app.kv,
    { actor: PEOPLE.owner, action: "invite.create", groupId: "alpha" },
    t0 + 4,
  );
  const actions = async (caller: Caller, query = "") =>
    (await app.call(caller, "GET", `/admin/api/audit?${query}`)).body.items.map(
      (entry: { action: string }) => entry.action,
    );
  assert.deepEqual(await actions("superAdmin"), [
    "invite.create",
    "session.login",
    "routes.replace",
    "routes.replace",
    "group.update",
  ]);
  assert.deepEqual(await actions("viewer"), ["invite.create", "routes.replace", "group.update"]);
  assert.deepEqual(await actions("otherOwner"), ["routes.replace"]);
  assert.deepEqual(await actions("superAdmin", "action=routes."), [
    "routes.replace",
    "routes.replace",
  ]);
  assert.deepEqual(await actions("superAdmin", "actor=OLIVIA"), ["invite.create", "group.update"]);
  assert.deepEqual(await actions("superAdmin", "groupId=beta"), ["routes.replace"]);
  assert.deepEqual(await actions("superAdmin", `from=${t0 + 1}&to=${t0 + 3}`), [
    "session.login",
    "routes.replace",
    "routes.replace",
  ]);
  const first = await app.call("viewer", "GET", "/admin/api/audit?limit=2");
  assert.equal(first.body.items.length, 2);
  const second = await app.call(
    "viewer",
    "GET",
    `/admin/api/audit?limit=2&cursor=${first.body.cursor}`,
  );
  assert.deepEqual(second.body.items.map((e: { action: string }) => e.action), ["group.update"]);
});

Deno.test("logs and audit: a page without a limit holds 50, and its cursor continues below them", async () => {
  await using app = await startAdminApp();
  const logs = Array.from({ length: 55 }, (_, i) => sendLog(NOW - (55 - i) * 1000));
  await storeSendLogs(app.kv, logs);
  for (let i = 0; i < 55; i++) {
    await storeAuditEntry(
      app.kv,
      { actor: PEOPLE.owner, action: "group.update", groupId: "alpha" },
      NOW - (55 - i) * 1000,
    );
  }
  for (const path of ["/admin/api/logs", "/admin/api/audit"]) {
    const first = await app.call("viewer", "GET", path);
    assert.equal(first.body.items.length, 50, path);
    const second = await app.call("viewer", "GET", `${path}?cursor=${first.body.cursor}`);
    assert.equal(second.body.items.length, 5, path);
  }
});

Deno.test("metrics: numbers after a known set of deliveries", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS.slice(0, 5));
  const all = (await app.call("superAdmin", "GET", "/admin/api/metrics")).body;
  assert.deepEqual(all.totals, { total: 5, ok: 3, failed: 1, dead: 1, retrying: 0 });
  assert.equal(all.failureRate, 2 / 5);
  assert.deepEqual(all.byStatus, { ok: 3, failed: 1, dead: 1, retrying: 0 });
  assert.deepEqual(all.byPlatform.telegram, { total: 1, ok: 0, failed: 1, dead: 0, retrying: 0 });
  assert.deepEqual(all.byEvent.pull_request, { total: 1, ok: 0, failed: 0, dead: 1, retrying: 0 });
  assert.deepEqual(
    all.recentFailures.map((log: { id: string }) => log.id).sort(),
    [
      LOGS[1].id,
      LOGS[2].id,
    ].sort(),
  );

  const beta = (await app.call("otherOwner", "GET", "/admin/api/metrics")).body;
  assert.deepEqual(beta.totals, { total: 1, ok: 1, failed: 0, dead: 0, retrying: 0 });
  assert.equal(beta.failureRate, 0);
  assert.deepEqual(beta.recentFailures, []);

  const alpha = (await app.call("viewer", "GET", "/admin/api/metrics?groupId=alpha")).body;
  assert.deepEqual(alpha.totals, { total: 4, ok: 2, failed: 1, dead: 1, retrying: 0 });
  assert.equal(alpha.failureRate, 0.5);
  const summed = (await app.call("viewer", "GET", "/admin/api/metrics")).body;
  assert.deepEqual(summed.totals, alpha.totals);
  assert.equal(summed.recentFailures.length, 2);
});

Deno.test("metrics: event kinds and platforms named __proto__, constructor or toString are counted as themselves", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, [
    sendLog(NOW - 3_000, { event: "__proto__", status: "failed" }),
    sendLog(NOW - 2_000, { event: "constructor" }),
    sendLog(NOW - 1_000, { event: "constructor", platform: "toString" as "discord" }),
  ]);
  const metrics = (await app.call("viewer", "GET", "/admin/api/metrics")).body;
  const own = (object: object, key: string) => Object.getOwnPropertyDescriptor(object, key)?.value;
  assert.deepEqual(own(metrics.byEvent, "__proto__"), {
    total: 1,
    ok: 0,
    failed: 1,
    dead: 0,
    retrying: 0,
  });
  assert.deepEqual(own(metrics.byEvent, "constructor"), {
    total: 2,
    ok: 2,
    failed: 0,
    dead: 0,
    retrying: 0,
  });
  assert.equal(own(metrics.byPlatform, "toString")?.total, 1);
  assert.deepEqual(metrics.totals, { total: 3, ok: 2, failed: 1, dead: 0, retrying: 0 });
});

Deno.test("metrics, logs and audit: a super admin asking for an unknown group gets 404", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS);
  for (const path of ["/admin/api/metrics", "/admin/api/logs", "/admin/api/audit"]) {
    const answer = await app.call("superAdmin", "GET", `${path}?groupId=nope`);
    assert.deepEqual({ status: answer.status, body: answer.body }, {
      status: 404,
      body: { error: "Unknown group nope" },
    }, path);
    assert.equal((await app.call("superAdmin", "GET", `${path}?groupId=alpha`)).status, 200, path);
  }
});

Deno.test("logs and audit: a cursor that no page gave is 400 Invalid cursor; a given one still works", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, LOGS);
  await storeAuditEntry(
    app.kv,
    { actor: PEOPLE.owner, action: "group.update", groupId: "alpha" },
    NOW,
  );
  await storeAuditEntry(
    app.kv,
    { actor: PEOPLE.owner, action: "group.update", groupId: "alpha" },
    NOW + 1,
  );
  for (const path of ["/admin/api/logs", "/admin/api/audit"]) {
    for (const cursor of ["zzz", "0", "01ARZ3NDEKTSV4RRFFQ69G5FAVX", `${"Z".repeat(26)}-`]) {
      const answer = await app.call(
        "viewer",
        "GET",
        `${path}?cursor=${encodeURIComponent(cursor)}`,
      );
      assert.deepEqual({ status: answer.status, body: answer.body }, {
        status: 400,
        body: { error: "Invalid cursor" },
      }, `${path} ${cursor}`);
    }
    const first = await app.call("viewer", "GET", `${path}?limit=1`);
    assert.ok(first.body.cursor, path);
    const next = await app.call("viewer", "GET", `${path}?limit=1&cursor=${first.body.cursor}`);
    assert.equal(next.status, 200, path);
    assert.notDeepEqual(next.body.items, first.body.items, path);
  }
});
