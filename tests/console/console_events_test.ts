/**
 * The events of a group: the fan-out records which routes each event fired (none included),
 * `GET /admin/api/groups/:id/events` lists them in cursor pages, and
 * `GET /admin/api/groups/:id/events/:eventId` explains one against each route. Readers of the
 * group may read; another group's event is unknown (404).
 */
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { type AdminApp, allowTarget, route, startAdminApp } from "../_admin_helpers.ts";
import { deliveryConfig, runWorker, settled } from "../_delivery_helpers.ts";
import { waitFor } from "../_helpers.ts";
import type { Route } from "../../lib/types.ts";

const BUG_ROUTE: Route = route("alpha", "bugs", {
  name: "Bugs to Discord",
  filters: [],
  ast: {
    all: [
      { type: "event", value: "pull_request.opened" },
      { type: "field", path: "$.pull_request.labels[*].name", op: "eq", value: "bug" },
    ],
  },
});
const PUSH_ROUTE: Route = route("alpha", "pushes", { name: "Pushes" });
const FALLBACK: Route = route("alpha", "rest", {
  name: "Everything else",
  fallback: true,
  enabled: false,
  filters: [],
});

function pullRequest(label: string) {
  return {
    action: "opened",
    pull_request: { number: 7, title: "Fix the bug", labels: [{ name: label }] },
    repository: { full_name: "octo/app" },
    sender: { login: "octocat" },
  };
}

/** Accepts a GitHub event into group `groupId`'s ingress; returns its id. */
async function accept(
  app: AdminApp,
  groupId: string,
  kind: string,
  payload: Record<string, unknown>,
): Promise<string> {
  const outcome = await saveEvent(app.kv, {
    provider: "github",
    kind,
    action: typeof payload.action === "string" ? payload.action : undefined,
    deliveryId: crypto.randomUUID(),
    scope: { type: "group", groupId },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify(payload)),
  });
  assert.equal(outcome.status, "accepted");
  return outcome.status === "accepted" ? outcome.eventId : "";
}

async function setup() {
  const app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  assert.ok((await replaceRoutes(app.kv, [BUG_ROUTE, PUSH_ROUTE, FALLBACK])).ok);
  return app;
}

Deno.test("events: the fan-out records fired routes, and the API lists and explains them", async () => {
  await using app = await setup();
  await using discord = startFakeDiscord();
  await using running = runWorker(app.kv, deliveryConfig({ discord }));
  const bug = await accept(app, "alpha", "pull_request", pullRequest("bug"));
  const docs = await accept(app, "alpha", "pull_request", pullRequest("docs"));
  for (const eventId of [bug, docs]) {
    await running.worker.handlers.deliver({ type: "deliver", eventId });
  }
  const bugLogs = await settled(
    app.kv,
    (await app.call("superAdmin", "GET", `/admin/api/groups/alpha/events/${bug}`)).body.event
      .deliveryId,
  );
  assert.equal(bugLogs[0].status, "ok");

  const list = await app.call("viewer", "GET", "/admin/api/groups/alpha/events");
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.items.map((item: { id: string; routesFired: number }) => [item.id, item.routesFired]),
    [[docs, 0], [bug, 1]],
  );
  const first = list.body.items[1];
  assert.equal(first.kind, "pull_request");
  assert.equal(first.action, "opened");
  assert.equal(first.repository, "octo/app");
  assert.equal(first.sender, "octocat");
  assert.match(first.title, /#7 Fix the bug/);
  assert.deepEqual(first.routeIds, ["bugs"]);

  const none = await app.call("viewer", "GET", "/admin/api/groups/alpha/events?outcome=none");
  assert.deepEqual(none.body.items.map((item: { id: string }) => item.id), [docs]);
  const paged = await app.call("viewer", "GET", "/admin/api/groups/alpha/events?limit=1");
  assert.equal(paged.body.items.length, 1);
  const next = await app.call(
    "viewer",
    "GET",
    `/admin/api/groups/alpha/events?limit=1&cursor=${paged.body.cursor}`,
  );
  assert.deepEqual(next.body.items.map((item: { id: string }) => item.id), [bug]);

  const detail = await app.call("viewer", "GET", `/admin/api/groups/alpha/events/${docs}`);
  assert.equal(detail.status, 200);
  assert.equal(detail.body.payload.pull_request.labels[0].name, "docs");
  assert.deepEqual(detail.body.logs, []);
  const verdicts = new Map(
    detail.body.routes.map((item: { id: string }) => [item.id, item]),
  ) as Map<string, Record<string, unknown>>;
  assert.deepEqual([...verdicts.keys()], ["bugs", "pushes", "rest"]);
  const bugs = verdicts.get("bugs")!;
  assert.equal(bugs.fired, false);
  assert.equal(bugs.matched, false);
  assert.equal(
    bugs.verdict,
    "Did not fire: the route wants label `bug`; this event has `docs`.",
  );
  const leaves = (bugs.explanation as { children: { matched: boolean; reason: string }[] })
    .children;
  assert.deepEqual(leaves.map((leaf) => leaf.matched), [true, false]);
  assert.match(leaves[1].reason, /docs/);
  assert.equal(
    verdicts.get("rest")!.verdict,
    "Did not fire: the route is disabled (its filters match).",
  );

  const fired = await app.call("viewer", "GET", `/admin/api/groups/alpha/events/${bug}`);
  assert.equal(fired.body.routes[0].fired, true);
  assert.equal(
    fired.body.routes[0].verdict,
    "Fired: the event is `pull_request.opened`; it has label `bug`.",
  );
  assert.deepEqual(fired.body.logs.map((log: { routeId: string }) => log.routeId), ["bugs"]);

  assert.ok((await replaceRoutes(app.kv, [PUSH_ROUTE])).ok);
  const later = await app.call("viewer", "GET", `/admin/api/groups/alpha/events/${bug}`);
  assert.deepEqual(later.body.routes.map((item: { id: string }) => item.id), ["pushes", "bugs"]);
  assert.deepEqual(later.body.routes[1], {
    id: "bugs",
    name: "bugs",
    enabled: false,
    fallback: false,
    fired: true,
    matched: false,
    verdict: "Fired when the event arrived; the route was deleted since.",
    deleted: true,
  });
});

Deno.test("events: another group's event is unknown, and only readers of the group may read", async () => {
  await using app = await setup();
  await using running = runWorker(app.kv, deliveryConfig({}));
  const alphaEvent = await accept(app, "alpha", "push", { ref: "refs/heads/main" });
  const betaEvent = await accept(app, "beta", "push", { ref: "refs/heads/main" });
  for (const eventId of [alphaEvent, betaEvent]) {
    await running.worker.handlers.deliver({ type: "deliver", eventId });
  }
  const alpha = await app.call("superAdmin", "GET", "/admin/api/groups/alpha/events");
  assert.deepEqual(alpha.body.items.map((item: { id: string }) => item.id), [alphaEvent]);
  const crossed = await app.call(
    "superAdmin",
    "GET",
    `/admin/api/groups/alpha/events/${betaEvent}`,
  );
  assert.equal(crossed.status, 404);
  assert.equal(crossed.body.error, `Group alpha has no event ${betaEvent}`);
  const owner = await app.call("owner", "GET", `/admin/api/groups/beta/events/${betaEvent}`);
  assert.equal(owner.status, 403);
  assert.equal((await app.call("stranger", "GET", "/admin/api/groups/alpha/events")).status, 403);
  assert.equal((await app.call("none", "GET", "/admin/api/groups/alpha/events")).status, 401);
  const unknownGroup = await app.call("superAdmin", "GET", "/admin/api/groups/nope/events");
  assert.equal(unknownGroup.status, 404);
  const malformed = await app.call("viewer", "GET", "/admin/api/groups/alpha/events/not-an-id");
  assert.equal(malformed.status, 400);
  const badCursor = await app.call("viewer", "GET", "/admin/api/groups/alpha/events?cursor=x");
  assert.equal(badCursor.status, 400);
  assert.match(badCursor.body.error, /^cursor: /);
});

Deno.test("events pages: the list, the explanation, the switcher and refusals, without JavaScript", async () => {
  await using app = await setup();
  await using discord = startFakeDiscord();
  await using running = runWorker(app.kv, deliveryConfig({ discord }));
  const docs = await accept(app, "alpha", "pull_request", pullRequest("docs"));
  await running.worker.handlers.deliver({ type: "deliver", eventId: docs });
  const beta = await accept(app, "beta", "push", { ref: "refs/heads/main" });
  await running.worker.handlers.deliver({ type: "deliver", eventId: beta });

  const chosen = await app.call("viewer", "GET", "/admin/events");
  assert.equal(chosen.status, 302, "a member of one group goes straight to it");
  assert.equal(chosen.headers.get("location"), "/admin/events/alpha");
  const switched = await app.call("superAdmin", "GET", "/admin/events?group=beta");
  assert.equal(switched.headers.get("location"), "/admin/events/beta");
  const index = await app.call("superAdmin", "GET", "/admin/events");
  assert.equal(index.status, 200);
  assert.match(index.body, /Choose a group/);

  const list = await app.call("viewer", "GET", "/admin/events/alpha");
  assert.equal(list.status, 200);
  assert.match(list.body, /<title>Events of Alpha · Switchyard<\/title>/);
  assert.match(
    list.body,
    new RegExp(`href="/admin/events/alpha/${docs}">Pull request opened: #7 Fix the bug</a>`),
  );
  assert.match(list.body, /no route/);
  assert.match(list.body, /aria-current="page"[^>]*>Events</);
  const filtered = await app.call("viewer", "GET", "/admin/events/alpha?outcome=fired");
  assert.match(filtered.body, /No events with a route fired\./);
  const refused = await app.call("viewer", "GET", "/admin/events/alpha?outcome=maybe");
  assert.equal(refused.status, 400);
  assert.match(refused.body, /role="alert"[^>]*>outcome: /);

  const detail = await app.call("viewer", "GET", `/admin/events/alpha/${docs}`);
  assert.equal(detail.status, 200);
  assert.match(detail.body, /Why did this event not arrive\?/);
  assert.match(detail.body, /Did not fire: the route wants label <code[^>]*>bug<\/code>/);
  assert.match(detail.body, /&quot;docs&quot;|"docs"/);
  assert.match(detail.body, /No messages: no route sent this event\./);
  assert.match(detail.body, /aria-label="Payload"/);

  assert.equal((await app.call("viewer", "GET", `/admin/events/alpha/${beta}`)).status, 404);
  assert.equal((await app.call("owner", "GET", "/admin/events/beta")).status, 403);
  assert.equal((await app.call("viewer", "GET", "/admin/events/alpha/nope")).status, 400);
});

Deno.test("route editor: the group's recent events are offered as samples, ?event= first", async () => {
  await using app = await setup();
  await using running = runWorker(app.kv, deliveryConfig({}));
  const docs = await accept(app, "alpha", "pull_request", pullRequest("docs"));
  await running.worker.handlers.deliver({ type: "deliver", eventId: docs });
  const beta = await accept(app, "beta", "push", { ref: "refs/heads/main" });
  await running.worker.handlers.deliver({ type: "deliver", eventId: beta });

  const editor = await app.call("admin", "GET", `/admin/routes/alpha/edit/bugs?event=${docs}`);
  assert.equal(editor.status, 200);
  assert.match(editor.body, /<optgroup label="Recent events of this group">/);
  assert.match(
    editor.body,
    new RegExp(`value="event:${docs}"[^>]*>pull_request\\.opened · octo/app · `),
  );
  assert.match(editor.body, new RegExp(`<option selected value="event:${docs}">`));
  const other = await app.call("admin", "GET", `/admin/routes/alpha/new?event=${beta}`);
  assert.equal(other.status, 200);
  assert.doesNotMatch(other.body, new RegExp(beta), "another group's event is not offered");
  assert.match(other.body, /<option selected value="pull_request\.opened">/);
});

Deno.test("event page: in a large group, routes for other kinds of events are listed by name only", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  const issues = Array.from(
    { length: 21 },
    (_, index) =>
      route("alpha", `issues-${index}`, { filters: [{ type: "event", value: "issues" }] }),
  );
  assert.ok((await replaceRoutes(app.kv, [BUG_ROUTE, ...issues])).ok);
  await using running = runWorker(app.kv, deliveryConfig({}));
  const docs = await accept(app, "alpha", "pull_request", pullRequest("docs"));
  await running.worker.handlers.deliver({ type: "deliver", eventId: docs });
  const page = await app.call("viewer", "GET", `/admin/events/alpha/${docs}`);
  assert.equal(page.status, 200);
  assert.match(
    page.body,
    /21 routes listen only to other events/,
  );
  const others = page.body.slice(page.body.indexOf('data-testid="other-events"'));
  assert.match(others, /data-route-id="issues-0"[^]*?\(issues\)/, "the event each route wants");
  assert.doesNotMatch(others, /pull_request\.opened/, "not the event that was tested");
  assert.match(
    page.body,
    /data-route-id="bugs"[\s\S]*Did not fire: the route wants label <code[^>]*>bug<\/code>; this event has <code[^>]*>docs<\/code>\./,
  );
  assert.equal(page.body.match(/data-testid="route-verdict"/g)?.length, 1);
});

Deno.test("event page: send again through the current routes makes a new event the routes judge now", async () => {
  await using app = await setup();
  await using discord = startFakeDiscord();
  await using _running = runWorker(app.kv, deliveryConfig({ discord }));
  const judged = (eventId: string) =>
    waitFor(
      `event ${eventId} judged`,
      async () =>
        (await app.call("viewer", "GET", `/admin/api/groups/alpha/events/${eventId}`)).status ===
          200,
    );
  // The queue's worker judges each event (not a direct call, which the queue would repeat).
  const docs = await accept(app, "alpha", "pull_request", pullRequest("docs"));
  await judged(docs);
  const path = `/admin/api/groups/alpha/events/${docs}/resend`;

  assert.equal((await app.call("viewer", "POST", path)).status, 403, "readers may not");
  assert.equal(
    (await app.call(
      "admin",
      "POST",
      "/admin/api/groups/alpha/events/01J000000000000000000000AB/resend",
    ))
      .status,
    404,
  );
  const page = await app.call("admin", "GET", `/admin/events/alpha/${docs}`);
  assert.match(page.body, /Send again through the current routes/);
  const viewerPage = await app.call("viewer", "GET", `/admin/events/alpha/${docs}`);
  assert.doesNotMatch(viewerPage.body, /Send again through the current routes/);

  const docsRoute: Route = route("alpha", "docs", {
    name: "Docs",
    filters: [{ type: "field", path: "pull_request.labels[*].name", value: "docs" }],
  });
  assert.ok((await replaceRoutes(app.kv, [BUG_ROUTE, docsRoute])).ok);
  const resent = await app.call("admin", "POST", path);
  assert.equal(resent.status, 200);
  assert.equal(resent.body.ok, true);
  assert.notEqual(resent.body.eventId, docs);
  await judged(resent.body.eventId);

  const again = await app.call(
    "viewer",
    "GET",
    `/admin/api/groups/alpha/events/${resent.body.eventId}`,
  );
  assert.equal(again.status, 200);
  assert.deepEqual(again.body.event.routeIds, ["docs"]);
  assert.equal(again.body.payload.pull_request.labels[0].name, "docs");
  const logs = await settled(app.kv, again.body.event.deliveryId);
  assert.deepEqual(logs.map((log) => [log.routeId, log.status]), [["docs", "ok"]]);
  const original = await app.call("viewer", "GET", `/admin/api/groups/alpha/events/${docs}`);
  assert.deepEqual(original.body.event.routeIds, [], "the original event stays as it was");

  const audit = await app.call("superAdmin", "GET", "/admin/api/audit?action=event.resend");
  assert.equal(audit.body.items.length, 1);
  assert.equal(audit.body.items[0].target, `event:${docs}`);
  assert.equal(audit.body.items[0].detail.event, resent.body.eventId);
});
