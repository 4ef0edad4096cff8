/**
 * The route editor's and route list's logic (`lib/console/`): the form checked with the API's
 * messages and turned back into a route, API errors landing on their field, list edits, the
 * conflict diff, summaries, operators, the bundled samples and their inference, and the paths
 * a sample offers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { validateRoutesBody } from "../../lib/admin/routes.ts";
import { HttpError } from "../../lib/fresh/http_error.ts";
import { EVENT_CATALOG } from "../../lib/console/event_catalog.ts";

const actionsOf = (kind: string) =>
  EVENT_CATALOG.find((entry) => entry.kind === kind.toLowerCase())?.actions ?? [];
import { opOf, withOp } from "../../lib/console/field_leaf.ts";
import { diffRoutes, isEmptyDiff } from "../../lib/console/route_diff.ts";
import {
  draftOf,
  draftProblems,
  fieldOfApiError,
  idFromName,
  newDraft,
  routeFromDraft,
} from "../../lib/console/route_draft.ts";
import {
  copyId,
  deleteRoute,
  duplicateRoute,
  moveRoute,
  putRoute,
  setEnabled,
} from "../../lib/console/route_list.ts";
import {
  describeTarget,
  summarizeFilter,
  summarizeRoute,
} from "../../lib/console/route_summary.ts";
import { samplePaths } from "../../lib/console/sample_paths.ts";
import { inferEvent, SAMPLES } from "../../lib/console/samples.ts";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { compilePath, validatePath } from "../../lib/jsonpath/path.ts";
import { FORMATTED_KINDS } from "../../lib/format/mod.ts";
import type { Route } from "../../lib/types.ts";
import { sampleJson } from "../_ingest_helpers.ts";

const ROUTE: Route = {
  id: "bugs",
  name: "Bugs",
  enabled: true,
  groupId: "alpha",
  filters: [{ type: "event", value: "issues.opened" }],
  discordRoleIds: ["555"],
  targets: [
    { platform: "discord", channelId: "123", threadId: "456" },
    { platform: "telegram", chatId: "-100200", topicId: 7 },
  ],
};

/** The message the API answers for a route (null when it accepts it). */
function apiMessage(route: unknown): string | null {
  try {
    validateRoutesBody({ routes: [route] }, []);
    return null;
  } catch (error) {
    assert.ok(error instanceof HttpError);
    return error.message;
  }
}

Deno.test("route form: a route's form turns back into the same route", () => {
  const draft = draftOf(ROUTE);
  assert.deepEqual(draft.targets, [
    { platform: "discord", place: "123", sub: "456" },
    { platform: "telegram", place: "-100200", sub: "7" },
  ]);
  const tree = { all: ROUTE.filters };
  assert.deepEqual(routeFromDraft(draft, tree, "alpha", ROUTE), ROUTE, "filters kept as stored");
  const changed = routeFromDraft(draft, { all: [] }, "alpha", ROUTE);
  assert.deepEqual(changed.ast, { all: [] });
  assert.deepEqual(changed.filters, []);
});

Deno.test("route form: fields the form does not know are kept", () => {
  const stored = { ...ROUTE, digest: { windowSeconds: 60, threshold: 3 } } as Route;
  const saved = routeFromDraft(draftOf(stored), { all: ROUTE.filters }, "alpha", stored);
  assert.deepEqual((saved as unknown as Record<string, unknown>).digest, {
    windowSeconds: 60,
    threshold: 3,
  });
});

Deno.test("route form: a fallback route with an empty tree stores no filter", () => {
  const draft = { ...newDraft(), id: "rest", name: "Rest", fallback: true };
  draft.targets = [{ platform: "discord", place: "0123", sub: "" }];
  const route = routeFromDraft(draft, { all: [] }, "alpha");
  assert.deepEqual(route, {
    id: "rest",
    name: "Rest",
    enabled: true,
    groupId: "alpha",
    fallback: true,
    filters: [],
    targets: [{ platform: "discord", channelId: "123" }],
  });
  assert.equal(apiMessage(route), null);
});

Deno.test("route form: problems carry the API's message on the API's field path", () => {
  const draft = {
    ...newDraft(),
    id: "Bad Id",
    name: "",
    targets: [
      { platform: "discord" as const, place: "12a", sub: "x" },
      { platform: "telegram" as const, place: "@no", sub: "0" },
    ],
    roleIds: ["1", "abc"],
  };
  const problems = draftProblems(draft, new Set());
  assert.deepEqual(Object.fromEntries(problems), {
    id: "must be 1-64 lower-case letters, digits, _ or -, starting with a letter or digit",
    name: "required",
    "targets[0].channelId": "must be a Discord id (digits)",
    "targets[0].threadId": "must be a Discord id (digits)",
    "targets[1].chatId": "must be a numeric chat id or an @channel name",
    "targets[1].topicId": "must be a positive integer",
    "discordRoleIds[1]": "must be a Discord id (digits)",
  });
  const good = draftOf(ROUTE);
  const cases = [
    { ...good, targets: [{ platform: "discord" as const, place: "12a", sub: "" }] },
    { ...good, targets: [{ platform: "discord" as const, place: "1", sub: "-5" }] },
    { ...good, targets: [{ platform: "telegram" as const, place: "@no", sub: "" }] },
    { ...good, targets: [{ platform: "telegram" as const, place: "@chan_name", sub: "0" }] },
    { ...good, roleIds: ["1", "x"] },
    { ...good, targets: [] },
  ];
  for (const draft of cases) {
    const [[field, message], ...more] = draftProblems(draft, new Set());
    assert.deepEqual(more, []);
    const route = routeFromDraft(draft, { all: ROUTE.filters }, "alpha");
    assert.equal(apiMessage(route), `routes[0].${field}: ${message}`, "the API says the same");
  }
  assert.match(
    draftProblems({ ...draftOf(ROUTE), id: "taken" }, new Set(["taken"])).get("id") ?? "",
    /another route of this group/,
  );
  assert.equal(draftProblems(draftOf(ROUTE), new Set()).size, 0);
});

Deno.test("route form: an API error lands on the field it names", () => {
  assert.deepEqual(
    fieldOfApiError("routes[2].targets[0].channelId: must be a Discord id (digits)", 2),
    { field: "targets[0].channelId", message: "must be a Discord id (digits)" },
  );
  assert.equal(fieldOfApiError("routes[1].name: required", 2), null);
  assert.equal(fieldOfApiError("The routes changed since they were read", 0), null);
});

Deno.test("route form: ids are made from names, unique in the group", () => {
  assert.equal(idFromName("PR opened → Discord!", new Set()), "pr-opened-discord");
  assert.equal(idFromName("Bugs", new Set(["bugs", "bugs-2"])), "bugs-3");
  assert.equal(idFromName("→", new Set()), "route");
});

Deno.test("route list: move, duplicate (disabled copy), enable, delete and put", () => {
  const a = { ...ROUTE, id: "a", name: "A" };
  const b = { ...ROUTE, id: "b", name: "B" };
  const c = { ...ROUTE, id: "c", name: "C" };
  assert.deepEqual(moveRoute([a, b, c], 0, 2).map((r) => r.id), ["b", "c", "a"]);
  assert.deepEqual(moveRoute([a, b, c], 2, 0).map((r) => r.id), ["c", "a", "b"]);
  const copied = duplicateRoute([a, b], 0);
  assert.deepEqual(copied.map((r) => [r.id, r.name, r.enabled]), [
    ["a", "A", true],
    ["a-copy", "Copy of A", false],
    ["b", "B", true],
  ]);
  assert.notEqual(copied[1].targets, a.targets, "a deep copy");
  assert.equal(copyId("a", new Set(["a-copy", "a-copy-2"])), "a-copy-3");
  assert.ok(copyId("x".repeat(64), new Set()).length <= 64);
  assert.deepEqual(setEnabled([a, b], "b", false).map((r) => r.enabled), [true, false]);
  assert.deepEqual(deleteRoute([a, b, c], "b").map((r) => r.id), ["a", "c"]);
  assert.deepEqual(putRoute([a, b], { ...b, name: "B2" }).map((r) => r.name), ["A", "B2"]);
  assert.deepEqual(putRoute([a], c).map((r) => r.id), ["a", "c"]);
});

Deno.test("route diff: routes added, removed, changed by name, and reordering", () => {
  const a = { ...ROUTE, id: "a", name: "A" };
  const b = { ...ROUTE, id: "b", name: "B" };
  const c = { ...ROUTE, id: "c", name: "C" };
  assert.deepEqual(diffRoutes([a, b], [{ ...a, enabled: false }, c]), {
    added: ["C"],
    removed: ["B"],
    changed: ["A"],
    reordered: false,
  });
  assert.deepEqual(diffRoutes([a, b, c], [c, a]).reordered, true);
  assert.ok(isEmptyDiff(diffRoutes([a, b], [{ ...a }, { ...b }])));
});

Deno.test("route summary: a filter tree and targets in one line", () => {
  assert.equal(
    summarizeFilter({
      all: [
        { type: "event", value: "pull_request.opened" },
        {
          any: [
            { type: "field", path: "labels[*].name", op: "in", value: ["bug", "crash"] },
            { not: { type: "field", path: "draft", op: "exists" } },
          ],
        },
        { type: "field", path: "ref", op: "regex", value: "^v\\d" },
      ],
    }),
    'pull_request.opened and (labels[*].name in ["bug", "crash"] or not draft exists) and ref matches /^v\\\\d/',
  );
  assert.equal(summarizeRoute({ filters: [], fallback: true }), "every event no other route took");
  assert.equal(summarizeRoute({ filters: [{ type: "event", value: "push" }] }), "push");
  assert.equal(summarizeFilter({ any: [] }), "no event");
  assert.ok(
    summarizeFilter({ all: Array(50).fill({ type: "event", value: "push" }) }).length <= 140,
  );
  assert.equal(describeTarget(ROUTE.targets[0]), "Discord #123 › thread 456");
  assert.equal(describeTarget(ROUTE.targets[1]), "Telegram -100200 › topic 7");
});

Deno.test("field leaf: the value follows the operator", () => {
  const leaf = { type: "field" as const, path: "x", value: "bug", caseSensitive: true };
  assert.deepEqual(withOp(leaf, "in"), { ...leaf, op: "in", value: ["bug"] });
  assert.deepEqual(withOp({ ...leaf, op: "in", value: ["a", "b"] }, "contains"), {
    ...leaf,
    op: "contains",
    value: "a",
  });
  assert.deepEqual(withOp(leaf, "exists"), { type: "field", path: "x", op: "exists" });
  assert.deepEqual(withOp(leaf, "gt"), { type: "field", path: "x", op: "gt", value: "bug" });
  assert.deepEqual(withOp({ ...leaf, op: "ne" }, "eq"), leaf, "eq is the default, left out");
  assert.equal(opOf({ type: "field", op: "nope" }), null);
});

Deno.test("event catalog: every kind the formatter writes can be picked", () => {
  const kinds = new Set(EVENT_CATALOG.map((entry) => entry.kind));
  for (const kind of FORMATTED_KINDS) assert.ok(kinds.has(kind), `${kind} is in the picker`);
  assert.ok(actionsOf("pull_request").includes("opened"));
  assert.deepEqual(actionsOf("PUSH"), []);
  assert.deepEqual(actionsOf("unknown"), []);
});

Deno.test("samples: every bundled sample is served, licensed, and infers its own event", async () => {
  const folder = join(PROJECT_ROOT, "static", "samples", "github");
  assert.match(await Deno.readTextFile(join(folder, "LICENSE")), /MIT License/);
  assert.ok(SAMPLES.length >= 6);
  for (const sample of SAMPLES) {
    const payload = await sampleJson(sample.id);
    assert.deepEqual(inferEvent(payload), { kind: sample.kind, action: sample.action }, sample.id);
  }
  const opened = await sampleJson("pull_request.opened");
  assert.deepEqual(compilePath("pull_request.labels[*].name")(opened), ["bug"]);
});

Deno.test("samples: a pasted payload's kind and action are inferred", () => {
  assert.deepEqual(inferEvent({ action: "created", issue: {}, comment: {} }), {
    kind: "issue_comment",
    action: "created",
  });
  assert.deepEqual(inferEvent({ ref: "refs/heads/x", before: "", after: "", commits: [] }), {
    kind: "push",
    action: undefined,
  });
  assert.deepEqual(inferEvent({ hello: 1 }), { kind: "custom", action: undefined });
  assert.deepEqual(inferEvent([1]), { kind: "custom" });
});

Deno.test("sample paths: every offered path is valid and finds something", () => {
  const payload = {
    action: "opened",
    pull_request: { labels: [{ name: "bug" }, { name: "ui", color: "f00" }], "head-ref": "x" },
    "odd key": true,
  };
  const paths = samplePaths(payload);
  assert.deepEqual(paths, [
    "action",
    "pull_request",
    "pull_request.labels",
    "pull_request.labels[*]",
    "pull_request.labels[*].name",
    "pull_request.labels[*].color",
    'pull_request["head-ref"]',
    '$["odd key"]',
  ]);
  for (const path of paths) {
    assert.equal(validatePath(path), null, path);
    assert.ok(compilePath(path)(payload).length > 0, path);
  }
  const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
  assert.equal(samplePaths(wide).length, 600);
  assert.deepEqual(samplePaths(undefined), []);
});
