/**
 * Finding an event: `GET /admin/api/groups/:id/events` searches the group's events by
 * repository, sender, event, title text, delivery id and a JSONPath filter over the stored
 * payloads, in cursor pages that stop at their limits and say how far they looked; a group only
 * ever finds its own events, and bad input is a 400 before anything is read.
 */
import assert from "node:assert/strict";
import { type EventSearch, SEARCH_LIMITS, searchEvents } from "../../lib/admin/event_search.ts";
import { searchPayloadFilter } from "../../lib/admin/event_search_filter.ts";
import { utf8 } from "../../lib/encoding.ts";
import { recordEventRoutes } from "../../lib/store/delivery/event_routes.ts";
import { EVENT_RETENTION_MS, saveEvent } from "../../lib/store/delivery/events.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { replaceRoutes } from "../../lib/store/config/routes.ts";
import type { Kv } from "../../lib/store/backend/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { type AdminApp, allowTarget, route, startAdminApp } from "../_admin_helpers.ts";
import { deliveryConfig, runWorker } from "../_delivery_helpers.ts";

/** One stored event: its record fields and payload. */
interface Stored {
  kind: string;
  action?: string;
  repository?: string;
  sender?: string;
  title?: string;
  deliveryId?: string;
  fired?: boolean;
  payload?: Record<string, unknown>;
}

async function internalIdOf(kv: Kv, groupId: string): Promise<string> {
  const { entry } = await readGroupEntry(kv, groupId);
  assert.ok(entry);
  return entry.internalId;
}

/** Stores an event of `groupId` (payload and routed-event record, as the fan-out writes it). */
async function store(kv: Kv, groupId: string, event: Stored): Promise<string> {
  const outcome = await saveEvent(kv, {
    provider: "github",
    kind: event.kind,
    action: event.action,
    deliveryId: event.deliveryId,
    scope: { type: "group", groupId },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify(event.payload ?? {})),
  });
  assert.equal(outcome.status, "accepted");
  const eventId = outcome.status === "accepted" ? outcome.eventId : "";
  await recordEventRoutes(kv, [{
    internalId: await internalIdOf(kv, groupId),
    record: {
      eventId,
      provider: "github",
      kind: event.kind,
      groupId,
      routeIds: event.fired ? ["r1"] : [],
      receivedAt: Date.now(),
      ...(event.action === undefined ? {} : { action: event.action }),
      ...(event.repository === undefined ? {} : { repository: event.repository }),
      ...(event.sender === undefined ? {} : { sender: event.sender }),
      ...(event.title === undefined ? {} : { title: event.title }),
      ...(event.deliveryId === undefined ? {} : { deliveryId: event.deliveryId }),
    },
  }], EVENT_RETENTION_MS);
  return eventId;
}

/** The ids a search of group `alpha` answers, as its viewer. */
async function found(app: AdminApp, query: string, groupId = "alpha"): Promise<string[]> {
  const answer = await app.call("viewer", "GET", `/admin/api/groups/${groupId}/events?${query}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.items.map((item: { id: string }) => item.id);
}

/** Six events of `alpha` (oldest first) and one of `beta` that resembles them. */
async function seed(app: AdminApp) {
  const kv = app.kv;
  const push = await store(kv, "alpha", {
    kind: "push",
    repository: "octo/app",
    sender: "octocat",
    title: "[octo/app] 2 new commits to main",
    deliveryId: "d-push",
    fired: true,
    payload: { ref: "refs/heads/main", repository: { full_name: "octo/app" } },
  });
  const opened = await store(kv, "alpha", {
    kind: "pull_request",
    action: "opened",
    repository: "octo/app",
    sender: "hubot",
    title: "Pull request opened: #7 Fix [bug] (part 2)",
    deliveryId: "d-opened",
    payload: {
      action: "opened",
      pull_request: { number: 7, draft: true, labels: [{ name: "security" }, { name: "bug" }] },
    },
  });
  const closed = await store(kv, "alpha", {
    kind: "pull_request",
    action: "closed",
    repository: "octo/lib",
    sender: "octocat",
    title: "Pull request closed: #8 Flaky test",
    deliveryId: "d-closed",
    fired: true,
    payload: {
      action: "closed",
      pull_request: { number: 8, draft: false, merged_at: "2026-01-02T03:04:05Z", labels: [] },
    },
  });
  const issue = await store(kv, "alpha", {
    kind: "issues",
    action: "opened",
    repository: "Octo/Lib",
    sender: "mona",
    title: "Issue opened: #9 The FLAKY test again",
    deliveryId: "d-issue",
    payload: { action: "opened", issue: { number: 9, labels: [{ name: "bug" }] } },
  });
  const custom = await store(kv, "alpha", { kind: "custom", payload: { message: { n: 1 } } });
  const beta = await store(kv, "beta", {
    kind: "pull_request",
    action: "opened",
    repository: "octo/app",
    sender: "octocat",
    title: "Pull request opened: #7 Fix [bug] (part 2)",
    deliveryId: "d-beta",
    payload: { pull_request: { labels: [{ name: "security" }] } },
  });
  return { push, opened, closed, issue, custom, beta };
}

Deno.test("event search: each filter of the API finds its events, newest first", async () => {
  await using app = await startAdminApp();
  const e = await seed(app);
  assert.deepEqual(await found(app, ""), [e.custom, e.issue, e.closed, e.opened, e.push]);
  assert.deepEqual(await found(app, "repository=OCTO/app"), [e.opened, e.push]);
  assert.deepEqual(await found(app, "repository=octo/lib"), [e.issue, e.closed]);
  assert.deepEqual(await found(app, "repository=octo"), [], "a repository is matched whole");
  assert.deepEqual(await found(app, "sender=OctoCat"), [e.closed, e.push]);
  assert.deepEqual(await found(app, "event=pull_request"), [e.closed, e.opened]);
  assert.deepEqual(await found(app, "event=pull_request.opened"), [e.opened]);
  assert.deepEqual(await found(app, "event=*.opened"), [e.issue, e.opened]);
  assert.deepEqual(await found(app, "outcome=fired"), [e.closed, e.push]);
  assert.deepEqual(await found(app, "text=flaky"), [e.issue, e.closed]);
  assert.deepEqual(await found(app, `text=${encodeURIComponent("[bug] (")}`), [e.opened]);
  assert.deepEqual(await found(app, "text=.*"), [], "title text is plain text, never a pattern");
  assert.deepEqual(await found(app, "deliveryId=d-closed"), [e.closed]);
  assert.deepEqual(await found(app, "deliveryId=d-"), [], "a delivery id is matched whole");
  assert.deepEqual(
    await found(app, "repository=octo/lib&sender=mona&event=issues&text=again"),
    [e.issue],
  );
});

Deno.test("event search: a JSONPath filter over the stored payloads, as route filters match", async () => {
  await using app = await startAdminApp();
  const e = await seed(app);
  const labels = encodeURIComponent("$.pull_request.labels[*].name");
  assert.deepEqual(await found(app, `path=${labels}&value=SECURITY`), [e.opened]);
  assert.deepEqual(await found(app, `path=${labels}`), [e.opened], "exists without a value");
  assert.deepEqual(await found(app, "path=pull_request.merged_at"), [e.closed]);
  assert.deepEqual(await found(app, "path=pull_request.draft&value=false"), [e.closed]);
  assert.deepEqual(
    await found(app, "path=pull_request.number&op=gte&value=7"),
    [e.closed, e.opened],
  );
  assert.deepEqual(
    await found(app, `path=${encodeURIComponent("$..labels[*].name")}&op=eq&value=bug`),
    [e.issue, e.opened],
  );
  assert.deepEqual(
    await found(app, `path=${labels}&op=ne&value=security&event=pull_request`),
    [e.closed],
  );
  assert.deepEqual(await found(app, "path=pull_request&op=exists&value=false"), [
    e.custom,
    e.issue,
    e.push,
  ]);
  const answer = await app.call("viewer", "GET", `/admin/api/groups/alpha/events?path=${labels}`);
  assert.deepEqual(
    { ...answer.body.reach, oldest: undefined, payloadBytes: undefined },
    {
      events: 5,
      payloads: 5,
      skipped: 0,
      partial: false,
      oldest: undefined,
      payloadBytes: undefined,
    },
  );
  assert.ok(answer.body.reach.payloadBytes > 100);
  assert.equal(answer.body.cursor, undefined);
});

Deno.test("event search: pages with a cursor, none repeated and none skipped", async () => {
  await using app = await startAdminApp();
  const ids: string[] = [];
  for (let index = 0; index < 5; index++) {
    ids.unshift(
      await store(app.kv, "alpha", {
        kind: "push",
        repository: "octo/app",
        title: `push ${index}`,
        payload: { n: index },
      }),
    );
    await store(app.kv, "alpha", { kind: "push", repository: "octo/other", payload: { n: -1 } });
  }
  for (const query of ["repository=octo/app", "text=push", "path=n&op=gte&value=0"]) {
    const seen: string[] = [];
    let cursor = "";
    let pages = 0;
    do {
      const answer = await app.call(
        "viewer",
        "GET",
        `/admin/api/groups/alpha/events?${query}&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      assert.equal(answer.status, 200);
      seen.push(...answer.body.items.map((item: { id: string }) => item.id));
      cursor = answer.body.cursor ?? "";
      pages++;
    } while (cursor !== "" && pages < 10);
    assert.deepEqual(seen, ids, query);
    assert.equal(pages, 3, query);
  }
});

Deno.test("event search: a group never finds another group's events, nor reads another group", async () => {
  await using app = await startAdminApp();
  const e = await seed(app);
  assert.deepEqual(await found(app, "deliveryId=d-beta"), []);
  assert.deepEqual(await found(app, "path=pull_request.labels[*].name&value=security"), [e.opened]);
  assert.deepEqual(await found(app, "text=part 2"), [e.opened]);
  assert.deepEqual(await found(app, "repository=octo/app&event=pull_request"), [e.opened]);
  const beta = await app.call(
    "otherOwner",
    "GET",
    "/admin/api/groups/beta/events?repository=octo/app",
  );
  assert.deepEqual(beta.body.items.map((item: { id: string }) => item.id), [e.beta]);
  const refused = await app.call(
    "viewer",
    "GET",
    "/admin/api/groups/beta/events?deliveryId=d-beta",
  );
  assert.equal(refused.status, 403);
  assert.equal(JSON.stringify(refused.body).includes(e.beta), false);
});

Deno.test("event search: bad input is a 400 naming the field, before anything is read", async () => {
  await using app = await startAdminApp();
  const long = (length: number) => "x".repeat(length);
  const cases: [string, RegExp][] = [
    [`path=${encodeURIComponent("$.a[")}`, /invalid JSONPath/],
    [`path=${encodeURIComponent("$.a[?(@.b ==")}`, /invalid JSONPath/],
    [`path=${long(513)}`, /path/],
    ["op=eq&value=1", /op and value need a path/],
    ["path=a&op=in&value=1", /op/],
    ["path=a&op=gt&value=soon", /value/],
    ["event=a%20b", /event/],
    [`text=${long(201)}`, /text/],
    [`repository=${long(201)}`, /repository/],
    [`sender=${long(101)}`, /sender/],
    [`deliveryId=${long(201)}`, /deliveryId/],
    [`value=${long(4097)}&path=a`, /value/],
    ["text=", /text/],
    ["cursor=nope", /cursor/],
    ["limit=0", /limit/],
  ];
  for (const [query, message] of cases) {
    const answer = await app.call("viewer", "GET", `/admin/api/groups/alpha/events?${query}`);
    assert.equal(answer.status, 400, query);
    assert.match(JSON.stringify(answer.body), message, query);
  }
});

Deno.test("event search: a page stops at its limits with a cursor that continues, and says how far it looked", async () => {
  await using app = await startAdminApp();
  const internalId = await internalIdOf(app.kv, "alpha");
  const wanted = await store(app.kv, "alpha", { kind: "push", payload: { wanted: true } });
  for (let index = 0; index < 24; index++) {
    await store(app.kv, "alpha", { kind: "push", payload: { wanted: false } });
  }
  const search: EventSearch = { payload: searchPayloadFilter("wanted", "eq", "true"), limit: 50 };
  const limits = { ...SEARCH_LIMITS, payloads: 10 };
  const first = await searchEvents(app.kv, internalId, search, limits);
  assert.deepEqual(first.items, []);
  assert.equal(first.reach.partial, true);
  assert.equal(first.reach.events, 10);
  assert.equal(first.reach.payloads, 10);
  assert.ok(first.cursor);
  const second = await searchEvents(
    app.kv,
    internalId,
    { ...search, cursor: first.cursor },
    limits,
  );
  assert.equal(second.reach.partial, true);
  const third = await searchEvents(
    app.kv,
    internalId,
    { ...search, cursor: second.cursor },
    limits,
  );
  assert.deepEqual(third.items.map((item) => item.eventId), [wanted]);
  assert.equal(third.reach.partial, false);
  assert.equal(third.reach.events, 5);
  assert.equal(third.cursor, undefined);

  const records = await searchEvents(app.kv, internalId, { text: "nothing", limit: 50 }, {
    ...SEARCH_LIMITS,
    records: 7,
  });
  assert.deepEqual([records.reach.events, records.reach.partial], [7, true]);
  let clock = 0;
  const timed = await searchEvents(
    app.kv,
    internalId,
    { text: "nothing", limit: 50 },
    { ...SEARCH_LIMITS, ms: 3 },
    () => clock++,
  );
  assert.deepEqual([timed.reach.events, timed.reach.partial], [3, true]);
  assert.ok(timed.cursor);
});

Deno.test("event search: the fan-out indexes delivery ids and repositories, and the API finds by them", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  assert.ok((await replaceRoutes(app.kv, [route("alpha", "pushes")])).ok);
  await using discord = startFakeDiscord();
  await using running = runWorker(app.kv, deliveryConfig({ discord }));
  const ids: string[] = [];
  for (const [deliveryId, repository] of [["gh-1", "Octo/App"], ["gh-2", "octo/lib"]]) {
    const outcome = await saveEvent(app.kv, {
      provider: "github",
      kind: "push",
      deliveryId,
      scope: { type: "group", groupId: "alpha" },
      receivedAt: Date.now(),
      headers: {},
      body: utf8(JSON.stringify({ ref: "refs/heads/main", repository: { full_name: repository } })),
    });
    assert.equal(outcome.status, "accepted");
    const eventId = outcome.status === "accepted" ? outcome.eventId : "";
    await running.worker.handlers.deliver({ type: "deliver", eventId });
    ids.push(eventId);
  }
  assert.deepEqual(await found(app, "deliveryId=gh-2"), [ids[1]]);
  assert.deepEqual(await found(app, "repository=octo/app"), [ids[0]]);
  const answer = await app.call("viewer", "GET", "/admin/api/groups/alpha/events?deliveryId=gh-1");
  assert.equal(answer.body.reach.events, 1, "found through the index, not by reading every record");
});
