/**
 * History (send logs, audit, metrics, redelivery) belongs to the group, not to the id it had:
 * a group that takes a renamed-away or deleted group's id sees none of it and cannot redeliver
 * it, and a renamed group keeps its own.
 */
import assert from "node:assert/strict";
import { getSendLog } from "../../lib/store/delivery/send_logs.ts";
import {
  type AdminApp,
  ALPHA,
  type Caller,
  PEOPLE,
  sendLog,
  startAdminApp,
  storeAuditEntry,
  storeSendLogs,
} from "../_admin_helpers.ts";

const NOW = Date.now();
const BETA_FAILED = sendLog(NOW - 60_000, {
  groupId: "beta",
  routeId: "b1",
  deliveryId: "beta-d1",
  status: "failed",
  error: "chat not found",
});
const BETA_OK = sendLog(NOW - 30_000, { groupId: "beta", routeId: "b1", deliveryId: "beta-d2" });

/** Beta's history: two send logs (one failed) with their counters, and an audit entry. */
async function betaHistory(app: AdminApp) {
  await storeSendLogs(app.kv, [BETA_FAILED, BETA_OK]);
  await storeAuditEntry(app.kv, {
    actor: PEOPLE.otherOwner,
    action: "routes.replace",
    groupId: "beta",
  }, NOW - 20_000);
}

async function get(app: AdminApp, caller: Caller, path: string) {
  const answer = await app.call(caller, "GET", path);
  assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function logIds(app: AdminApp, caller: Caller, query = "") {
  return (await get(app, caller, `/admin/api/logs?${query}`)).items.map((log: { id: string }) =>
    log.id
  );
}

async function auditActions(app: AdminApp, caller: Caller, query: string) {
  return (await get(app, caller, `/admin/api/audit?${query}`)).items.map((
    entry: { action: string },
  ) => entry.action);
}

/**
 * What a group that now has the id `beta` sees of the earlier beta: nothing. One of its logs is
 * `logStatus`: 403 while the earlier beta exists under another id, 404 once it was deleted.
 */
async function assertSeesNoneOfOldBeta(app: AdminApp, caller: Caller, logStatus: 403 | 404) {
  const ids = await logIds(app, caller, "groupId=beta");
  assert.ok(!ids.includes(BETA_FAILED.id) && !ids.includes(BETA_OK.id), "logs by group");
  const all = await logIds(app, caller);
  assert.ok(!all.includes(BETA_FAILED.id) && !all.includes(BETA_OK.id), "logs of all groups");
  assert.ok(!(await auditActions(app, caller, "groupId=beta")).includes("routes.replace"));
  const metrics = await get(app, caller, "/admin/api/metrics?groupId=beta");
  assert.deepEqual(metrics.totals, { total: 0, ok: 0, failed: 0, dead: 0, retrying: 0 });
  assert.deepEqual(metrics.recentFailures, []);
  const oldLog = await app.call(caller, "GET", `/admin/api/logs/${BETA_FAILED.id}`);
  assert.equal(oldLog.status, logStatus, JSON.stringify(oldLog.body));
  assert.equal((await app.call(caller, "GET", "/admin/api/delivery/beta-d1")).status, 404);
  const redeliver = await app.call(caller, "POST", "/admin/api/delivery/beta-d1/redeliver");
  assert.equal(redeliver.status, 404);
  assert.equal((await getSendLog(app.kv, BETA_FAILED.id))?.status, "failed", "not requeued");
}

Deno.test("history: a group renamed to a renamed-away id sees none of the old group's logs, audit or metrics", async () => {
  await using app = await startAdminApp();
  await betaHistory(app);
  const away = await app.call("otherOwner", "PUT", "/admin/api/groups/beta/rename", {
    body: { newId: "beta-team" },
  });
  assert.deepEqual(away.body, { ok: true, id: "beta-team" });
  const taken = await app.call("owner", "PUT", "/admin/api/groups/alpha/rename", {
    body: { newId: "beta" },
  });
  assert.deepEqual(taken.body, { ok: true, id: "beta" });
  await assertSeesNoneOfOldBeta(app, "owner", 403);
  await assertSeesNoneOfOldBeta(app, "admin", 403);

  assert.deepEqual(await logIds(app, "otherOwner", "groupId=beta-team"), [
    BETA_OK.id,
    BETA_FAILED.id,
  ]);
  const one = await app.call("otherOwner", "GET", `/admin/api/logs/${BETA_FAILED.id}`);
  assert.deepEqual(one.body, BETA_FAILED);
  assert.deepEqual(await auditActions(app, "otherOwner", "groupId=beta-team"), [
    "group.rename",
    "routes.replace",
  ]);
  const metrics = await get(app, "otherOwner", "/admin/api/metrics?groupId=beta-team");
  assert.deepEqual(metrics.totals, { total: 2, ok: 1, failed: 1, dead: 0, retrying: 0 });
  assert.deepEqual(metrics.recentFailures.map((log: { id: string }) => log.id), [BETA_FAILED.id]);
  const redelivered = await app.call("otherOwner", "POST", "/admin/api/delivery/beta-d1/redeliver");
  assert.deepEqual(redelivered.body, { ok: true, requeued: [], expired: [BETA_FAILED.id] });
});

Deno.test("history: the renamed group keeps its own history, before and after the rename", async () => {
  await using app = await startAdminApp();
  await storeSendLogs(app.kv, [sendLog(NOW - 10_000, { deliveryId: "alpha-before" })]);
  const renamed = await app.call("owner", "PUT", "/admin/api/groups/alpha/rename", {
    body: { newId: "alpha-team" },
  });
  assert.equal(renamed.status, 200);
  await storeSendLogs(app.kv, [
    sendLog(NOW - 5_000, { groupId: "alpha-team", deliveryId: "alpha-after" }),
  ]);
  const deliveries = (await get(app, "viewer", "/admin/api/logs?groupId=alpha-team")).items
    .map((log: { deliveryId: string }) => log.deliveryId);
  assert.deepEqual(deliveries, ["alpha-after", "alpha-before"]);
  assert.equal((await get(app, "viewer", "/admin/api/delivery/alpha-before")).items.length, 1);
  const metrics = await get(app, "viewer", "/admin/api/metrics");
  assert.equal(metrics.totals.total, 2);
});

Deno.test("history: a group created with a deleted group's id starts empty; a super admin still sees the old history", async () => {
  await using app = await startAdminApp();
  await betaHistory(app);
  const deleted = await app.call("superAdmin", "PUT", "/admin/api/groups", {
    body: { groups: [ALPHA] },
  });
  assert.equal(deleted.status, 200);
  const newBeta = {
    id: "beta",
    name: "New beta",
    members: [{ ...PEOPLE.owner, role: "owner" }, { ...PEOPLE.admin, role: "admin" }],
  };
  const created = await app.call("superAdmin", "PUT", "/admin/api/groups", {
    body: { groups: [ALPHA, newBeta] },
  });
  assert.equal(created.status, 200);
  await assertSeesNoneOfOldBeta(app, "owner", 404);
  assert.deepEqual(await auditActions(app, "owner", "groupId=beta"), ["group.create"]);

  const everything = await logIds(app, "superAdmin");
  assert.ok(everything.includes(BETA_FAILED.id) && everything.includes(BETA_OK.id));
  assert.deepEqual(await logIds(app, "superAdmin", "groupId=beta"), []);
  const oldLog = await app.call("superAdmin", "GET", `/admin/api/logs/${BETA_FAILED.id}`);
  assert.equal(oldLog.status, 200);
});
