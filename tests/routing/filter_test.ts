import assert from "node:assert/strict";
import { compile, FilterValidationError, match } from "../../lib/routing/compile.ts";
import { explain } from "../../lib/routing/explain.ts";
import { compileRoutes, selectRoutes } from "../../lib/routing/select.ts";
import type { FilterNode, Group, Scope } from "../../lib/types.ts";
import { filterCases, selectionCases } from "../filter_cases.ts";

Deno.test("the case table covers at least 120 matcher cases with unique names", () => {
  assert.ok(filterCases.length >= 120, `only ${filterCases.length} cases`);
  assert.equal(new Set(filterCases.map((entry) => entry.name)).size, filterCases.length);
});

for (const entry of filterCases) {
  Deno.test(`match: ${entry.name}`, () => {
    const input = { kind: entry.kind, action: entry.action, payload: entry.payload };
    assert.equal(match(compile(entry.node), input), entry.expected);
    assert.equal(explain(entry.node, input).matched, entry.expected, "explain disagrees");
  });
}

for (const entry of selectionCases) {
  Deno.test(`select: ${entry.name}`, async () => {
    const selection = await selectRoutes(
      entry.event,
      entry.scope,
      compileRoutes(entry.routes),
      entry.groups,
    );
    assert.deepEqual(selection.routes.map((route) => route.id), entry.expected);
    assert.deepEqual(selection.notEvaluated, []);
  });
}

const labelsEvent = {
  kind: "pull_request",
  action: "labeled",
  payload: { labels: [{ name: "docs" }, { name: "ci" }] },
};

Deno.test("explain: a leaf gives its values and a one-line reason", () => {
  const node: FilterNode = { type: "field", path: "labels[*].name", op: "contains", value: "bug" };
  const explanation = explain(node, labelsEvent);
  assert.deepEqual(explanation, {
    kind: "field",
    matched: false,
    reason: 'labels[*].name contains "bug": no value contains it (values: "docs", "ci")',
    path: "labels[*].name",
    op: "contains",
    expected: "bug",
    values: ["docs", "ci"],
    valueCount: 2,
  });
});

Deno.test("explain: the explanation mirrors the tree", () => {
  const node: FilterNode = {
    all: [
      { type: "event", value: "pull_request.labeled" },
      { not: { type: "field", path: "labels[*].name", value: "CI" } },
    ],
  };
  const explanation = explain(node, labelsEvent);
  assert.equal(explanation.kind, "all");
  assert.equal(explanation.matched, false);
  assert.equal(
    explanation.reason,
    "1 of 2 match; the first that does not: a not group",
  );
  if (explanation.kind !== "all") throw new Error("unreachable");
  const [eventLeaf, negation] = explanation.children;
  assert.equal(eventLeaf.matched, true);
  assert.equal(eventLeaf.reason, "wants pull_request.labeled; this event is pull_request.labeled");
  assert.equal(negation.kind, "not");
  if (negation.kind !== "not") throw new Error("unreachable");
  assert.equal(negation.matched, false);
  assert.equal(negation.child.matched, true);
  assert.equal(negation.child.reason, 'labels[*].name eq "CI": value "ci" equals it');
});

Deno.test("explain: at most 5 values, long strings cut, missing paths named", () => {
  const long = "x".repeat(200);
  const payload = { items: [long, "b", "c", "d", "e", "f", "g"] };
  const explanation = explain({ type: "field", path: "items", value: "z" }, {
    kind: "custom",
    payload,
  });
  if (explanation.kind !== "field") throw new Error("expected a field explanation");
  assert.equal(explanation.values.length, 5);
  assert.equal(explanation.valueCount, 7);
  assert.equal((explanation.values[0] as string).length, 60);
  assert.ok((explanation.values[0] as string).endsWith("…"));
  assert.match(explanation.reason, /and 2 more\)$/);
  const missing = explain({ type: "field", path: "nope", op: "ne", value: 1 }, {
    kind: "custom",
    payload,
  });
  assert.equal(missing.matched, true);
  assert.equal(missing.reason, "nope ne 1: path not found");
});

Deno.test("explain: empty all and any say what they do", () => {
  const input = { kind: "push", payload: {} };
  assert.equal(explain({ all: [] }, input).reason, "empty all: matches every event");
  assert.equal(explain({ any: [] }, input).reason, "empty any: matches no event");
});

function refusal(node: unknown): string {
  try {
    compile(node as FilterNode);
  } catch (error) {
    assert.ok(error instanceof FilterValidationError, `unexpected ${error}`);
    return error.message;
  }
  throw new Error("the tree was accepted");
}

Deno.test("compile refuses invalid trees with the path of the bad node", () => {
  const regex = { type: "field", path: "title", op: "regex", value: "(" };
  assert.equal(
    refusal({ any: [{ type: "event", value: "push" }, { all: [] }, { not: regex }] }),
    "any[2].not.value: invalid regex: missing closing ): `(`",
  );
  assert.equal(
    refusal({ all: [{ type: "field", path: "a[", value: 1 }] }),
    'all[0].path: invalid JSONPath: unclosed "["',
  );
  assert.equal(
    refusal({ type: "field", path: "a", op: "like", value: 1 }),
    'op: unknown operator "like" (expected one of eq, ne, contains, startsWith, endsWith, ' +
      "regex, gt, gte, lt, lte, in, exists)",
  );
  assert.equal(
    refusal({ type: "field", path: "a", op: "in", value: "x" }),
    "value: op in needs a non-empty list",
  );
  assert.equal(refusal({ type: "field", path: "a", op: "eq" }), "value: required for op eq");
  assert.equal(
    refusal({ type: "field", path: "a", op: "gt", value: "soon" }),
    "value: op gt needs a number, a numeric string or an ISO-8601 timestamp",
  );
  for (
    const impossible of [
      "2026-02-30",
      "2026-04-31T10:00:00Z",
      "2026-02-29",
      "2026-01-01T10:00+25:00",
    ]
  ) {
    assert.equal(
      refusal({ type: "field", path: "a", op: "gt", value: impossible }),
      "value: op gt needs a number, a numeric string or an ISO-8601 timestamp",
      impossible,
    );
  }
  assert.equal(refusal({ type: "event", value: ["push", "bad name"] }).split(":")[0], "value[1]");
  assert.equal(
    refusal({ all: [], any: [] }),
    "a node has exactly one of type, all, any or not (found all, any)",
  );
  assert.equal(
    refusal({ any: [{ type: "field", path: "a", value: 1, extra: true }] }),
    'any[0].extra: unknown key "extra"',
  );
  assert.equal(
    refusal({ type: "field", path: "$.a[?(@.b.match('x'))]", value: 1 }),
    `path: invalid JSONPath: expression "@.b.match('x')": function calls are not allowed`,
  );
  assert.equal(
    refusal({ type: "field", path: "title", op: "regex", value: "x".repeat(513) }),
    "value: invalid regex: longer than 512 characters",
  );
});

Deno.test("compile enforces depth 8 and 64 leaves", () => {
  let deep: FilterNode = { type: "event", value: "push" };
  for (let level = 1; level < 8; level++) deep = { not: deep };
  compile(deep);
  assert.equal(
    refusal({ not: deep }),
    "not.not.not.not.not.not.not.not: too deep: at most 8 levels",
  );
  const leaves = (count: number): FilterNode => ({
    any: Array.from({ length: count }, () => ({ type: "event", value: "push" }) as FilterNode),
  });
  compile(leaves(64));
  assert.equal(refusal(leaves(65)), "too many leaves: 65 (at most 64)");
});

Deno.test("a catastrophic regex over 2,000 characters returns: the engine does not backtrack", () => {
  // A backtracking engine tries about 2^2000 ways to split the a's before giving up, so this
  // test would never finish; a linear-time engine answers at once.
  const compiled = compile({ type: "field", path: "text", op: "regex", value: "(a+)+$" });
  const input = { kind: "custom", payload: { text: "a".repeat(2000) + "!" } };
  assert.equal(match(compiled, input), false);
  assert.equal(match(compiled, { kind: "custom", payload: { text: "a".repeat(2000) } }), true);
});

Deno.test("compileRoutes keeps a route that does not compile, and it never fires", () => {
  const [compiled] = compileRoutes([{
    id: "r",
    name: "r",
    enabled: true,
    groupId: "g",
    filters: [{ type: "field", path: "a", op: "regex", value: "(" }],
    targets: [{ platform: "discord", channelId: "1" }],
  }]);
  assert.match(compiled.error ?? "", /invalid regex/);
  assert.equal(compiled.matches({ kind: "push", payload: { a: "(" } }), false);
});

Deno.test("select: with globalIngress claimed, global events enter only groups that claimed them", async () => {
  const pr = { kind: "pull_request", action: "opened", provider: "github" as const };
  const payload = {
    installation: { id: 77 },
    repository: { owner: { login: "acme" } },
    action: "opened",
  };
  const groups: Group[] = [
    { id: "bound", name: "Bound", members: [], installationId: 77 },
    { id: "owned", name: "Owned", members: [], owners: ["ACME"] },
    { id: "open", name: "Open", members: [] },
    { id: "foreign", name: "Foreign", members: [], owners: ["globex"] },
  ];
  const routes = compileRoutes(groups.map((group) => ({
    id: `r-${group.id}`,
    name: group.id,
    enabled: true,
    groupId: group.id,
    filters: [{ type: "event", value: "pull_request" }],
    targets: [{ platform: "discord", channelId: "1" }],
  })));
  const fired = async (globalIngress: "all" | "claimed", scope: Scope) =>
    (await selectRoutes({ ...pr, payload }, scope, routes, groups, { globalIngress }))
      .routes.map((route) => route.id);
  const global: Scope = { type: "global" };
  assert.deepEqual(await fired("all", global), ["r-bound"], "a bound installation's event");
  assert.deepEqual(await fired("claimed", global), ["r-bound"]);
  const unbound = { ...payload, installation: { id: 78 } };
  const firedUnbound = async (globalIngress: "all" | "claimed") =>
    (await selectRoutes({ ...pr, payload: unbound }, global, routes, groups, { globalIngress }))
      .routes.map((route) => route.id);
  assert.deepEqual(await firedUnbound("all"), ["r-owned", "r-open"]);
  assert.deepEqual(await firedUnbound("claimed"), ["r-owned"]);
  assert.deepEqual(await fired("claimed", { type: "group", groupId: "open" }), ["r-open"]);
  const custom = { kind: "custom", provider: "custom" as const, payload: { action: "x" } };
  const customFired = await selectRoutes(
    custom,
    global,
    compileRoutes([{
      id: "c",
      name: "c",
      enabled: true,
      groupId: "open",
      filters: [{ type: "event", value: "custom" }],
      targets: [{ platform: "discord", channelId: "1" }],
    }]),
    groups,
    { globalIngress: "claimed" },
  );
  assert.deepEqual(customFired.routes, []);
});
