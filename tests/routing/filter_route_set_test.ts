/**
 * Route sets: the index by event kind names every route that can match an event's kind, a
 * leaf shared by several routes is evaluated once per event yet charged to each route's
 * budget, and a route set decides every case of the matcher's table as `compile` does.
 */
import assert from "node:assert/strict";
import { EvaluationBudget } from "../../lib/jsonpath/budget.ts";
import { KindIndex, possibleKinds } from "../../lib/routing/kind_index.ts";
import { compileRouteSet } from "../../lib/routing/route_set.ts";
import { compileRoutes, selectRoutes } from "../../lib/routing/select.ts";
import type { FieldFilter, FilterNode, Group, Route } from "../../lib/types.ts";
import { filterCases } from "../filter_cases.ts";

const kinds = (node: FilterNode) => {
  const found = possibleKinds(node);
  return found === "any" ? "any" : [...found].sort();
};

Deno.test("possibleKinds reads event leaves; fields, not and globbed kinds mean any kind", () => {
  assert.deepEqual(kinds({ type: "event", value: "Push" }), ["push"]);
  assert.deepEqual(kinds({ type: "event", value: ["pull_request.opened", "issues.*"] }), [
    "issues",
    "pull_request",
  ]);
  assert.equal(kinds({ type: "event", value: "pull_*" }), "any");
  assert.equal(kinds({ type: "event", value: "*" }), "any");
  assert.equal(kinds({ type: "field", path: "a", value: 1 }), "any");
  assert.equal(kinds({ not: { type: "event", value: "push" } }), "any");
  assert.equal(kinds({ all: [] }), "any");
  assert.deepEqual(kinds({ any: [] }), []);
  assert.deepEqual(
    kinds({ all: [{ type: "field", path: "a" }, { type: "event", value: ["push", "issues"] }] }),
    ["issues", "push"],
  );
  assert.deepEqual(
    kinds({
      all: [{ type: "event", value: ["push", "issues"] }, { type: "event", value: "issues" }],
    }),
    ["issues"],
  );
  assert.deepEqual(
    kinds({ any: [{ type: "event", value: "push" }, { type: "event", value: "release" }] }),
    ["push", "release"],
  );
  assert.equal(
    kinds({ any: [{ type: "event", value: "push" }, { type: "field", path: "a" }] }),
    "any",
  );
});

Deno.test("the kind index keeps stored order and adds the routes of any kind", () => {
  const index = new KindIndex([
    new Set(["push"]),
    "any",
    new Set(["issues", "push"]),
    new Set<string>(),
    "any",
  ]);
  assert.deepEqual(index.candidates("push"), [0, 1, 2, 4]);
  assert.deepEqual(index.candidates("ISSUES"), [1, 2, 4]);
  assert.deepEqual(index.candidates("release"), [1, 4]);
});

Deno.test("a route set decides every case of the matcher table as compile does", () => {
  const { set, errors } = compileRouteSet(filterCases.map((entry) => entry.node));
  assert.deepEqual(errors.filter((error) => error !== undefined), []);
  assert.ok(set.leafCount < filterCases.length * 3, "identical leaves are shared");
  filterCases.forEach((entry, position) => {
    const memo = set.newMemo();
    const input = { ...entry, budget: new EvaluationBudget(), memo };
    const candidate = set.candidates(entry.kind).includes(position);
    if (entry.expected) assert.ok(candidate, `${entry.name}: indexed out`);
    assert.equal(candidate && set.matches(position, input), entry.expected, entry.name);
  });
});

function routeOf(id: string, groupId: string, ast: FilterNode): Route {
  return {
    id,
    name: id,
    enabled: true,
    groupId,
    filters: [],
    ast,
    targets: [{ platform: "discord", channelId: "1" }],
  };
}

const groupOf = (id: string): Group => ({ id, name: id, members: [] });

Deno.test("a leaf shared by routes is evaluated once per event", async () => {
  let reads = 0;
  const payload = {
    get title() {
      reads++;
      return "fix: typo";
    },
  };
  const leaf: FieldFilter = { type: "field", path: "title", op: "startsWith", value: "fix" };
  const routes = compileRoutes([
    routeOf("a", "g", leaf),
    routeOf("b", "g", { all: [leaf, { type: "event", value: "custom" }] }),
    routeOf("c", "h", { not: leaf }),
  ]);
  const selection = await selectRoutes(
    { kind: "custom", provider: "custom", payload },
    { type: "global" },
    routes,
    [groupOf("g"), groupOf("h")],
  );
  assert.deepEqual(selection.routes.map((route) => route.id), ["a", "b"]);
  assert.equal(reads, 1);
});

Deno.test("a shared leaf's steps are charged to every route that uses it", async () => {
  const wide: Record<string, number> = {};
  for (let index = 0; index < 400; index++) wide[`k${index}`] = index;
  const heavy: FieldFilter = { type: "field", path: "$..*", op: "eq", value: 399 };
  const routes = compileRoutes([
    routeOf("first", "noisy", heavy),
    routeOf("again", "noisy", heavy),
    routeOf("other-group", "quiet", heavy),
  ]);
  const selection = await selectRoutes(
    { kind: "custom", provider: "custom", payload: { wide } },
    { type: "global" },
    routes,
    [groupOf("noisy"), groupOf("quiet")],
    { stepsPerGroup: 1_500 },
  );
  assert.deepEqual(selection.routes.map((route) => route.id), ["first", "other-group"]);
  assert.deepEqual(selection.notEvaluated.map(({ route }) => route.id), ["again"]);
  assert.match(selection.notEvaluated[0].reason, /^path \$\.\.\*: evaluation budget exceeded/);
});

Deno.test("a route that cannot match the event's kind is skipped without spending steps", async () => {
  const wide: Record<string, number> = {};
  for (let index = 0; index < 400; index++) wide[`k${index}`] = index;
  const routes = compileRoutes([
    routeOf("push-only", "g", {
      all: [{ type: "field", path: "$..*", op: "eq", value: -1 }, { type: "event", value: "push" }],
    }),
    routeOf("cheap", "g", { type: "field", path: "wide.k1", value: 1 }),
  ]);
  const selection = await selectRoutes(
    { kind: "issues", provider: "github", payload: { wide } },
    { type: "global" },
    routes,
    [groupOf("g")],
    { stepsPerGroup: 100 },
  );
  assert.deepEqual(selection.routes.map((route) => route.id), ["cheap"]);
  assert.deepEqual(selection.notEvaluated, []);
});
