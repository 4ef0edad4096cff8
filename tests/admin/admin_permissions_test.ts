/**
 * The permission matrix: every admin endpoint × no session, viewer, admin, owner of another
 * group, owner and super admin of group `alpha` → the expected status. Each cell runs on a
 * fresh app, so a write in one cell cannot change another.
 */
import assert from "node:assert/strict";
import { ADMIN_ENDPOINTS } from "../../lib/admin/endpoints.ts";
import { replaceFragments } from "../../lib/store/config/fragments.ts";
import { recordEventRoutes } from "../../lib/store/delivery/event_routes.ts";
import { listGroupEntries, putGroup } from "../../lib/store/config/groups.ts";
import { createInvite } from "../../lib/store/config/invites.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import {
  type AdminApp,
  allowTarget,
  ALPHA,
  type Caller,
  PEOPLE,
  route,
  sendLog,
  startAdminApp,
  storeSendLogs,
} from "../_admin_helpers.ts";

const LOG = sendLog(Date.UTC(2025, 0, 2), { deliveryId: "d-1", status: "dead" });
/** An event of group `alpha` (its payload is not kept: the verdicts say so). */
const EVENT_ID = LOG.eventId;
/** A bulk replay id of group `alpha` (none is stored). */
const REPLAY_ID = "01JB0000000000000000000000";

interface Cell {
  name: string;
  method: string;
  path: string | ((app: AdminApp) => Promise<string>);
  /** The path a computed `path` is (default: the invite of `alpha`). */
  covers?: string;
  body?: unknown;
  /** none, viewer, admin, otherOwner, owner, superAdmin */
  expected: [number, number, number, number, number, number];
}

const CALLERS: Caller[] = ["none", "viewer", "admin", "otherOwner", "owner", "superAdmin"];
const inviteOfAlpha = async (app: AdminApp) => {
  const invite = await createInvite(app.kv, {
    groupId: "alpha",
    role: "viewer",
    createdBy: PEOPLE.owner,
  });
  return `/admin/api/invites/${invite!.token}`;
};

const MATRIX: Cell[] = [
  { name: "me", method: "GET", path: "/admin/api/me", expected: [401, 200, 200, 200, 200, 200] },
  {
    name: "own preferences",
    method: "GET",
    path: "/admin/api/me/preferences",
    expected: [401, 200, 200, 200, 200, 200],
  },
  {
    name: "set own preferences",
    method: "PUT",
    path: "/admin/api/me/preferences",
    body: { skipOwnActions: true },
    expected: [401, 200, 200, 200, 200, 200],
  },
  {
    name: "list routes",
    method: "GET",
    path: "/admin/api/routes",
    expected: [401, 200, 200, 200, 200, 200],
  },
  {
    name: "replace routes",
    method: "PUT",
    path: "/admin/api/routes",
    body: { routes: [route("alpha", "r1", { name: "Changed" })] },
    expected: [401, 403, 200, 403, 200, 200],
  },
  {
    name: "list groups",
    method: "GET",
    path: "/admin/api/groups",
    expected: [401, 200, 200, 200, 200, 200],
  },
  {
    name: "replace groups",
    method: "PUT",
    path: "/admin/api/groups",
    body: { groups: [{ ...ALPHA, name: "Renamed" }] },
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "create group",
    method: "POST",
    path: "/admin/api/groups",
    body: { id: "gamma", name: "Gamma", members: [{ ...PEOPLE.owner, role: "owner" }] },
    expected: [401, 403, 403, 403, 403, 201],
  },
  {
    name: "read group",
    method: "GET",
    path: "/admin/api/groups/alpha",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "replace group",
    method: "PUT",
    path: "/admin/api/groups/alpha",
    body: { ...ALPHA, name: "Renamed" },
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "delete group",
    method: "DELETE",
    path: "/admin/api/groups/alpha",
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "list group routes",
    method: "GET",
    path: "/admin/api/groups/alpha/routes",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "replace group routes",
    method: "PUT",
    path: "/admin/api/groups/alpha/routes",
    body: { routes: [route("alpha", "r2")] },
    expected: [401, 403, 200, 403, 200, 200],
  },
  {
    name: "list fragments",
    method: "GET",
    path: "/admin/api/groups/alpha/fragments",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "replace fragments",
    method: "PUT",
    path: "/admin/api/groups/alpha/fragments",
    body: {
      fragments: [{
        id: "f1",
        groupId: "alpha",
        name: "Pushes",
        node: { type: "event", value: "push" },
      }],
    },
    expected: [401, 403, 200, 403, 200, 200],
  },
  {
    name: "list allowed targets",
    method: "GET",
    path: "/admin/api/groups/alpha/targets",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "replace allowed targets",
    method: "PUT",
    path: "/admin/api/groups/alpha/targets",
    body: { targets: [{ platform: "discord", channelId: "42" }] },
    expected: [401, 403, 403, 403, 403, 200],
  },
  {
    name: "rename",
    method: "PUT",
    path: "/admin/api/groups/alpha/rename",
    body: { newId: "alpha-2" },
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "list invites",
    method: "GET",
    path: "/admin/api/groups/alpha/invites",
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "create invite",
    method: "POST",
    path: "/admin/api/groups/alpha/invites",
    body: { role: "admin" },
    expected: [401, 403, 403, 403, 201, 201],
  },
  {
    name: "revoke invite",
    method: "DELETE",
    path: inviteOfAlpha,
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "webhook info",
    method: "GET",
    path: "/admin/api/groups/alpha/webhook",
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "regenerate secret",
    method: "POST",
    path: "/admin/api/groups/alpha/webhook/regenerate",
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "revoke the previous secret",
    method: "DELETE",
    path: async (app) => {
      await regenerateGroupSecret(app.kv, "alpha");
      await regenerateGroupSecret(app.kv, "alpha", Date.now(), undefined, undefined, 60_000);
      return "/admin/api/groups/alpha/webhook/previous";
    },
    covers: "/admin/api/groups/alpha/webhook/previous",
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "disable webhook",
    method: "DELETE",
    path: "/admin/api/groups/alpha/webhook",
    expected: [401, 403, 403, 403, 200, 200],
  },
  {
    name: "send a test event",
    method: "POST",
    path: "/admin/api/groups/alpha/test-event",
    body: { sample: "push" },
    expected: [401, 403, 200, 403, 200, 200],
  },
  {
    name: "the group's rejected requests",
    method: "GET",
    path: "/admin/api/groups/alpha/rejections",
    expected: [401, 403, 200, 403, 200, 200],
  },
  {
    name: "the problems of the group's routes",
    method: "GET",
    path: "/admin/api/groups/alpha/problems",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "resume a paused target",
    method: "POST",
    path: "/admin/api/groups/alpha/target-health/resume",
    body: { target: "discord:123456789" },
    // Never paused here: those allowed reach the 404.
    expected: [401, 403, 404, 403, 404, 404],
  },
  {
    name: "discard what a paused target holds",
    method: "POST",
    path: "/admin/api/groups/alpha/target-health/discard",
    body: { target: "discord:123456789" },
    expected: [401, 403, 404, 403, 404, 404],
  },
  {
    name: "my review reminders",
    method: "GET",
    path: "/admin/api/me/reminders",
    expected: [401, 200, 200, 200, 200, 200],
  },
  {
    name: "add a personal review reminder (needs a linked Telegram account)",
    method: "POST",
    path: "/admin/api/me/reminders",
    body: { days: ["mon"], times: ["09:00"], timeZone: "UTC" },
    expected: [401, 400, 400, 400, 400, 400],
  },
  {
    name: "remove a personal review reminder (only one's own)",
    method: "DELETE",
    path: "/admin/api/me/reminders/0123456789abcdef",
    expected: [401, 404, 404, 404, 404, 404],
  },
  {
    name: "the group's review reminders",
    method: "GET",
    path: "/admin/api/groups/alpha/reminders",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "add a channel review reminder",
    method: "POST",
    path: "/admin/api/groups/alpha/reminders",
    body: {
      days: ["mon"],
      times: ["09:00"],
      timeZone: "UTC",
      target: { platform: "discord", channelId: "123456789" },
    },
    expected: [401, 403, 201, 403, 201, 201],
  },
  {
    name: "remove a channel review reminder",
    method: "DELETE",
    path: "/admin/api/groups/alpha/reminders/0123456789abcdef",
    expected: [401, 403, 404, 403, 404, 404],
  },
  {
    name: "the instance's rejected requests",
    method: "GET",
    path: "/admin/api/rejections",
    expected: [401, 403, 403, 403, 403, 200],
  },
  {
    name: "logs",
    method: "GET",
    path: "/admin/api/logs",
    expected: [401, 200, 200, 200, 200, 200],
  },
  {
    name: "events of a group",
    method: "GET",
    path: "/admin/api/groups/alpha/events",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "one event",
    method: "GET",
    path: `/admin/api/groups/alpha/events/${EVENT_ID}`,
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "send an event again through the current routes",
    method: "POST",
    path: `/admin/api/groups/alpha/events/${EVENT_ID}/resend`,
    // The seeded event has routes but no stored payload: those allowed reach the 409.
    expected: [401, 403, 409, 403, 409, 409],
  },
  {
    name: "count what a bulk replay would send",
    method: "GET",
    path: "/admin/api/groups/alpha/replays/preview",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "start a bulk replay",
    method: "POST",
    path: "/admin/api/groups/alpha/replays",
    body: {},
    expected: [401, 403, 202, 403, 202, 202],
  },
  {
    name: "bulk replays of a group",
    method: "GET",
    path: "/admin/api/groups/alpha/replays",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "one bulk replay",
    method: "GET",
    path: `/admin/api/groups/alpha/replays/${REPLAY_ID}`,
    // No replay is stored: those allowed reach the 404.
    expected: [401, 404, 404, 403, 404, 404],
  },
  {
    name: "pause a bulk replay",
    method: "POST",
    path: `/admin/api/groups/alpha/replays/${REPLAY_ID}/state`,
    body: { action: "pause" },
    expected: [401, 403, 404, 403, 404, 404],
  },
  {
    name: "logs of a group",
    method: "GET",
    path: "/admin/api/logs?groupId=alpha",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "one log",
    method: "GET",
    path: `/admin/api/logs/${LOG.id}`,
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "delivery",
    method: "GET",
    path: "/admin/api/delivery/d-1",
    expected: [401, 200, 200, 404, 200, 200],
  },
  {
    name: "redeliver",
    method: "POST",
    path: "/admin/api/delivery/d-1/redeliver",
    expected: [401, 403, 200, 404, 200, 200],
  },
  {
    name: "audit",
    method: "GET",
    path: "/admin/api/audit",
    expected: [401, 200, 200, 200, 200, 200],
  },
  {
    name: "audit of a group",
    method: "GET",
    path: "/admin/api/audit?groupId=alpha",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "metrics",
    method: "GET",
    path: "/admin/api/metrics",
    expected: [401, 200, 200, 200, 200, 200],
  },
  {
    name: "metrics of a group",
    method: "GET",
    path: "/admin/api/metrics?groupId=alpha",
    expected: [401, 200, 200, 403, 200, 200],
  },
  {
    name: "config export",
    method: "GET",
    path: "/admin/api/config/export",
    expected: [401, 403, 403, 403, 403, 200],
  },
  {
    name: "config import",
    method: "POST",
    path: "/admin/api/config/import",
    body: {
      version: 1,
      exportedAt: "2026-01-01T00:00:00.000Z",
      groups: [ALPHA],
      routes: [],
      fragments: [],
      allowedTargets: [],
    },
    expected: [401, 403, 403, 403, 403, 200],
  },
  {
    name: "test-match",
    method: "POST",
    path: "/admin/api/test-match",
    body: { node: { type: "event", value: "push" }, event: "push", payload: {} },
    expected: [401, 200, 200, 200, 200, 200],
  },
  {
    name: "message preview",
    method: "POST",
    path: "/admin/api/preview",
    body: { event: "custom", payload: { action: "ping", title: "hello" } },
    expected: [401, 200, 200, 200, 200, 200],
  },
];

async function seeded(): Promise<AdminApp> {
  const app = await startAdminApp();
  await replaceRoutes(app.kv, [route("alpha", "r1"), route("beta", "b1")]);
  await allowTarget(app.kv, "alpha");
  await replaceFragments(app.kv, "alpha", []);
  await regenerateGroupSecret(app.kv, "alpha");
  await storeSendLogs(app.kv, [LOG]);
  const [alpha] = (await listGroupEntries(app.kv)).filter((entry) => entry.group.id === "alpha");
  await recordEventRoutes(app.kv, [{
    internalId: alpha.internalId,
    record: {
      eventId: EVENT_ID,
      provider: "github",
      kind: "push",
      groupId: "alpha",
      routeIds: ["r1"],
      receivedAt: LOG.createdAt,
    },
  }], 60_000);
  return app;
}

for (const cell of MATRIX) {
  Deno.test(`permissions: ${cell.method} ${cell.name}`, async () => {
    const actual: number[] = [];
    for (const caller of CALLERS) {
      await using app = await seeded();
      const path = typeof cell.path === "string" ? cell.path : await cell.path(app);
      actual.push((await app.call(caller, cell.method, path, { body: cell.body })).status);
    }
    assert.deepEqual(actual, cell.expected, CALLERS.join(", "));
  });
}

Deno.test("permissions: the matrix covers every endpoint of the registry", () => {
  const covered = new Set(MATRIX.map((cell) => {
    const path = typeof cell.path === "string"
      ? cell.path
      : cell.covers ?? "/admin/api/invites/{token}";
    return `${cell.method} ${path.split("?")[0]}`;
  }));
  for (const { method, path } of Object.values(ADMIN_ENDPOINTS)) {
    const concrete = path
      .replace("{id}", path.startsWith("/admin/api/logs/") ? LOG.id : "alpha")
      .replace("{deliveryId}", "d-1")
      .replace("{eventId}", EVENT_ID)
      .replace("{replayId}", REPLAY_ID)
      .replace("{reminderId}", "0123456789abcdef");
    assert.ok(covered.has(`${method} ${concrete}`), `${method} ${path}`);
  }
});

Deno.test("permissions: a signed-in person in no group gets 403 everywhere, even /me", async () => {
  await using app = await seeded();
  for (const cell of MATRIX) {
    const path = typeof cell.path === "string" ? cell.path : await cell.path(app);
    const answer = await app.call("stranger", cell.method, path, { body: cell.body });
    assert.equal(answer.status, 403, cell.name);
  }
});

Deno.test("permissions: a cross-origin browser write is refused", async () => {
  await using app = await seeded();
  const answer = await app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
    body: { role: "viewer" },
    headers: { origin: "https://evil.example" },
  });
  assert.equal(answer.status, 403);
  assert.deepEqual(answer.body, { error: "Cross-origin request refused" });
  const same = await app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
    body: { role: "viewer" },
    headers: { origin: "http://localhost" },
  });
  assert.equal(same.status, 201);
});

Deno.test("permissions: DEBUG_MODE is a super admin without a session", async () => {
  await using app = await startAdminApp({ DEBUG_MODE: "true" });
  const me = await app.call("none", "GET", "/admin/api/me");
  assert.equal(me.status, 200);
  assert.equal(me.body.superAdmin, true);
  assert.equal(me.body.debugMode, true);
  const groups = await app.call("none", "PUT", "/admin/api/groups", {
    body: { groups: [{ ...ALPHA, name: "Debugged" }] },
  });
  assert.equal(groups.status, 200);
});

Deno.test("roles: a group named constructor gets its own role, never an inherited member", async () => {
  await using app = await startAdminApp();
  await putGroup(app.kv, {
    id: "constructor",
    name: "Constructor",
    members: [{ ...PEOPLE.otherOwner, role: "owner" }, { ...PEOPLE.viewer, role: "viewer" }],
  });
  const roles = async (caller: Caller) =>
    (await app.call(caller, "GET", "/admin/api/groups")).body.roles;
  assert.deepEqual(await roles("superAdmin"), {
    alpha: "owner",
    beta: "owner",
    constructor: "owner",
  });
  assert.deepEqual(await roles("viewer"), { alpha: "viewer", constructor: "viewer" });
  const me = await app.call("superAdmin", "GET", "/admin/api/me");
  assert.deepEqual(
    me.body.groups.map((g: { id: string; role: string }) => `${g.id}:${g.role}`),
    ["alpha:owner", "beta:owner", "constructor:owner"],
  );
});
