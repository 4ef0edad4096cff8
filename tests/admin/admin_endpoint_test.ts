/**
 * The admin endpoint wrapper is the one place that turns an endpoint's data into an answer:
 * status, JSON body and, for versioned reads, the `ETag`.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { z } from "zod";
import { apiHandler, defineEndpoint } from "../../lib/admin/endpoint.ts";
import { ADMIN_ENDPOINTS } from "../../lib/admin/endpoints.ts";
import { Versioned } from "../../lib/admin/versioned.ts";
import { RequestContext } from "../../lib/fresh/context.ts";
import type { State } from "../../lib/state.ts";
import type { Principal } from "../../lib/types.ts";
import { startAdminApp } from "../_admin_helpers.ts";
import { captureLog, testConfig } from "../_helpers.ts";

const SUPER_ADMIN: Principal = {
  userId: "900",
  login: "sam",
  superAdmin: true,
  roles: new Map(),
  csrfToken: "t".repeat(43),
  sessionId: null,
  debug: false,
};

function call(handler: ReturnType<typeof apiHandler>): Promise<Response> {
  const state: State = {
    requestId: "test-request",
    kv: undefined as unknown as Kv,
    config: testConfig(),
    log: captureLog().log,
    adapters: new Map(),
    principal: SUPER_ADMIN,
  };
  const req = new Request("http://localhost/admin/api/thing");
  const ctx = new RequestContext(req, {}, state, () => {
    throw new Error("no page");
  });
  return Promise.resolve(handler(ctx) as Response | Promise<Response>);
}

Deno.test("endpoint wrapper: Versioned data answers with its version as ETag and the success status", async () => {
  const endpoint = defineEndpoint({
    method: "GET",
    path: "/admin/api/thing",
    summary: "a thing",
    access: "anyone",
    response: z.object({ n: z.number() }),
    status: 203,
    versioned: true,
  });
  const res = await call(
    apiHandler(endpoint, () => Promise.resolve(new Versioned({ n: 1 }, "v7"))),
  );
  assert.equal(res.status, 203);
  assert.equal(res.headers.get("etag"), '"v7"');
  assert.deepEqual(await res.json(), { n: 1 });
  const empty = await call(apiHandler(endpoint, () => Promise.resolve(new Versioned({}, null))));
  assert.equal(empty.headers.get("etag"), '"empty"');
  await empty.body?.cancel();
});

Deno.test("endpoint wrapper: a versioned GET that answers unversioned data is refused", async () => {
  const endpoint = defineEndpoint({
    method: "GET",
    path: "/admin/api/thing",
    summary: "a thing",
    access: "anyone",
    response: z.object({}),
    versioned: true,
  });
  await assert.rejects(
    () => call(apiHandler(endpoint, () => Promise.resolve({}))),
    /GET \/admin\/api\/thing must answer Versioned data/,
  );
});

Deno.test("every versioned admin GET answers an ETag; other reads answer none", async () => {
  await using app = await startAdminApp();
  const reads = Object.values(ADMIN_ENDPOINTS).filter((endpoint) => endpoint.method === "GET");
  const checked: string[] = [];
  for (const endpoint of reads) {
    const path = endpoint.path.replace("/groups/{id}", "/groups/alpha");
    if (path.includes("{")) continue; // a single log, delivery or event: none is stored here
    const res = await app.call("superAdmin", "GET", path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.has("etag"), endpoint.versioned === true, path);
    checked.push(path);
  }
  assert.deepEqual(checked.sort(), [
    "/admin/api/audit",
    "/admin/api/config/export",
    "/admin/api/groups",
    "/admin/api/groups/alpha",
    "/admin/api/groups/alpha/events",
    "/admin/api/groups/alpha/fragments",
    "/admin/api/groups/alpha/invites",
    "/admin/api/groups/alpha/problems",
    "/admin/api/groups/alpha/rejections",
    "/admin/api/groups/alpha/reminders",
    "/admin/api/groups/alpha/replays",
    "/admin/api/groups/alpha/replays/preview",
    "/admin/api/groups/alpha/routes",
    "/admin/api/groups/alpha/targets",
    "/admin/api/groups/alpha/webhook",
    "/admin/api/logs",
    "/admin/api/me",
    "/admin/api/me/preferences",
    "/admin/api/me/reminders",
    "/admin/api/metrics",
    "/admin/api/rejections",
    "/admin/api/routes",
  ]);
});
