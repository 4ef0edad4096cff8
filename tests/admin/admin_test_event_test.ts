/**
 * `POST /admin/api/groups/:id/test-event`: a bundled sample (or a recent event) goes through the
 * group's real ingress, signed by the server; the event is stored, its route fires and the fake
 * Discord receives it. Only owners and admins may send, the secret is in no answer, each send
 * is audited, and a group's sends are limited per minute.
 */
import assert from "node:assert/strict";
import { TEST_EVENTS_PER_MINUTE } from "../../lib/admin/test_event.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { type AdminApp, allowTarget, route, startAdminApp } from "../_admin_helpers.ts";
import { deliveryConfig, runWorker, settled, waitFor } from "../_delivery_helpers.ts";

const PR_ROUTE = route("alpha", "prs", {
  name: "Pull requests",
  filters: [{ type: "event", value: "pull_request" }],
});

async function withSecret(app: AdminApp): Promise<string> {
  const answer = await app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate");
  assert.equal(answer.status, 200);
  return answer.body.secret;
}

Deno.test("test event: a bundled sample is stored, its route fires and Discord receives it", async () => {
  await using app = await startAdminApp();
  await using discord = startFakeDiscord();
  await allowTarget(app.kv, "alpha");
  assert.ok((await replaceRoutes(app.kv, [PR_ROUTE])).ok);
  const secret = await withSecret(app);
  await using _worker = runWorker(app.kv, deliveryConfig({ discord }));

  const sent = await app.call("admin", "POST", "/admin/api/groups/alpha/test-event", {
    body: { sample: "pull_request.opened" },
  });
  assert.equal(sent.status, 200);
  assert.equal(sent.body.status, 200);
  assert.equal(sent.body.accepted, true);
  assert.equal(sent.body.provider, "github");
  assert.match(sent.body.deliveryId, /^test-/);
  assert.ok(!JSON.stringify(sent.body).includes(secret), "the secret is not in the answer");

  const logs = await settled(app.kv, sent.body.deliveryId);
  assert.equal(logs[0].status, "ok");
  assert.equal(logs[0].routeId, "prs");
  assert.equal(discord.received.length, 1);
  assert.equal(discord.received[0].chat, "123456789");

  let events: { id: string; deliveryId?: string; routeIds: string[] }[] = [];
  await waitFor("the event in the group's events", async () => {
    events = (await app.call("admin", "GET", "/admin/api/groups/alpha/events")).body.items;
    return events.some((event) => event.deliveryId === sent.body.deliveryId);
  });
  const event = events.find((item) => item.deliveryId === sent.body.deliveryId)!;
  assert.deepEqual(event.routeIds, ["prs"]);
  const detail = await app.call("admin", "GET", `/admin/api/groups/alpha/events/${event.id}`);
  assert.equal(detail.body.routes[0].fired, true);
  assert.equal(detail.body.logs[0].status, "ok");

  // A recent event is sent again as it arrived, with a new delivery id.
  const again = await app.call("owner", "POST", "/admin/api/groups/alpha/test-event", {
    body: { eventId: event.id },
  });
  assert.equal(again.body.status, 200);
  assert.notEqual(again.body.deliveryId, sent.body.deliveryId);
  await settled(app.kv, again.body.deliveryId);
  assert.equal(discord.received.length, 2);

  const audit = await app.call("owner", "GET", "/admin/api/audit?action=webhook.test");
  assert.equal(audit.body.items.length, 2);
  assert.equal(audit.body.items[0].actor.login, "olivia");
  assert.equal(audit.body.items[1].detail.sample, "pull_request.opened");
  assert.ok(!JSON.stringify(audit.body).includes(secret));
});

Deno.test("test event: viewers, strangers and other groups' owners are refused; nothing is sent", async () => {
  await using app = await startAdminApp();
  await withSecret(app);
  for (const caller of ["viewer", "stranger", "otherOwner"] as const) {
    const answer = await app.call(caller, "POST", "/admin/api/groups/alpha/test-event", {
      body: { sample: "push" },
    });
    assert.equal(answer.status, 403, caller);
  }
  const none = await app.call("none", "POST", "/admin/api/groups/alpha/test-event", {
    body: { sample: "push" },
  });
  assert.equal(none.status, 401);
  const events = await app.call("owner", "GET", "/admin/api/groups/alpha/events");
  assert.equal(events.body.items.length, 0);
  const audit = await app.call("owner", "GET", "/admin/api/audit?action=webhook.test");
  assert.equal(audit.body.items.length, 0);
});

Deno.test("test event: a cross-site POST is refused", async () => {
  await using app = await startAdminApp();
  await withSecret(app);
  const answer = await app.call("owner", "POST", "/admin/api/groups/alpha/test-event", {
    body: { sample: "push" },
    headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
  });
  assert.equal(answer.status, 403);
});

Deno.test("test event: bad samples, foreign events and a group without a secret are clear 4xx", async () => {
  await using app = await startAdminApp();
  const noSecret = await app.call("owner", "POST", "/admin/api/groups/alpha/test-event", {
    body: { sample: "push" },
  });
  assert.equal(noSecret.status, 409);
  assert.match(noSecret.body.error, /generate one first/);
  await withSecret(app);
  for (const sample of ["../../deno", "nope.sample", "push/../x"]) {
    const answer = await app.call("owner", "POST", "/admin/api/groups/alpha/test-event", {
      body: { sample },
    });
    assert.equal(answer.status, 400, sample);
  }
  const unknown = await app.call("owner", "POST", "/admin/api/groups/alpha/test-event", {
    body: { eventId: "01J0000000000000000000000A" },
  });
  assert.equal(unknown.status, 404);
  const both = await app.call("owner", "POST", "/admin/api/groups/alpha/test-event", {
    body: { sample: "push", eventId: "01J0000000000000000000000A" },
  });
  assert.equal(both.status, 400);
});

Deno.test("test event: a group sends at most its share a minute (429 with Retry-After)", async () => {
  await using app = await startAdminApp();
  await withSecret(app);
  for (let sent = 0; sent < TEST_EVENTS_PER_MINUTE; sent++) {
    const answer = await app.call("owner", "POST", "/admin/api/groups/alpha/test-event", {
      body: { sample: "push" },
    });
    assert.equal(answer.status, 200);
  }
  const refused = await app.call("owner", "POST", "/admin/api/groups/alpha/test-event", {
    body: { sample: "push" },
  });
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  const audit = await app.call("owner", "GET", "/admin/api/audit?action=webhook.test&limit=50");
  assert.equal(audit.body.items.length, TEST_EVENTS_PER_MINUTE);
});
