/**
 * The per-event evaluation budget: a filter that cannot be evaluated is an error, never a
 * silent "no values"; explain and compile decide alike; selection gives each group its own
 * budget, reports what it could not evaluate and lets other work run.
 */
import assert from "node:assert/strict";
import { EvaluationBudget, FilterEvaluationError } from "../../lib/jsonpath/budget.ts";
import { compile } from "../../lib/routing/compile.ts";
import { explain } from "../../lib/routing/explain.ts";
import { compileRoutes, selectRoutes } from "../../lib/routing/select.ts";
import type { FilterNode, Group, Route } from "../../lib/types.ts";
import { filterCases } from "../filter_cases.ts";

function wideObject(keys: number): Record<string, number> {
  const wide: Record<string, number> = {};
  for (let index = 0; index < keys; index++) wide[`k${index}`] = index;
  return wide;
}

const everything = (op: "eq" | "ne", value: unknown): FilterNode => ({
  type: "field",
  path: "$..*",
  op,
  value,
});

Deno.test("$..* over a 90,000-key payload is evaluated within the default budget", () => {
  const input = { kind: "custom", payload: wideObject(90_000) };
  assert.equal(compile(everything("eq", 89_999))(input), true);
  const explanation = explain(everything("eq", -1), input);
  if (explanation.kind !== "field") throw new Error("expected a field explanation");
  assert.equal(explanation.matched, false);
  assert.equal(explanation.valueCount, 90_000);
  assert.deepEqual(explanation.values, [0, 1, 2, 3, 4]);
  assert.match(explanation.reason, /\(values: 0, 1, 2, 3, 4 and 89995 more\)$/);
});

Deno.test("an exhausted budget is an error: ne and exists false do not turn true", () => {
  const payload = { a: 1, wide: wideObject(1_000) };
  const small = () => new EvaluationBudget(500);
  const leaves: FilterNode[] = [
    everything("ne", "x"),
    { type: "field", path: "$..nothing", op: "exists", value: false },
    { not: everything("eq", "x") },
  ];
  for (const node of leaves) {
    const compiled = compile(node);
    assert.throws(
      () => compiled({ kind: "custom", payload, budget: small() }),
      (error: Error) =>
        error instanceof FilterEvaluationError &&
        /^path \$\.\.\S+: evaluation budget exceeded \(more than 500 steps/.test(error.message),
    );
    assert.throws(() => explain(node, { kind: "custom", payload, budget: small() }), {
      name: "FilterEvaluationError",
    });
    assert.equal(compiled({ kind: "custom", payload }), true, "with the default budget");
  }
});

Deno.test("explain fails exactly where compile fails, for every budget", () => {
  for (const entry of filterCases) {
    const compiled = compile(entry.node);
    for (let steps = 0; steps <= 12; steps++) {
      const input = { kind: entry.kind, action: entry.action, payload: entry.payload };
      const outcome = (run: () => boolean) => {
        try {
          return run();
        } catch (error) {
          assert.ok(error instanceof FilterEvaluationError, String(error));
          return "failed";
        }
      };
      const compiledOutcome = outcome(() =>
        compiled({ ...input, budget: new EvaluationBudget(steps) })
      );
      const explained = outcome(() =>
        explain(entry.node, { ...input, budget: new EvaluationBudget(steps) }).matched
      );
      assert.equal(explained, compiledOutcome, `${entry.name} with ${steps} steps`);
    }
  }
});

Deno.test("a child after the deciding one that runs out of budget says so", () => {
  const payload = { a: 1, wide: wideObject(1_000) };
  const node: FilterNode = {
    any: [{ type: "field", path: "a", value: 1 }, everything("eq", "x")],
  };
  const explanation = explain(node, { kind: "custom", payload, budget: new EvaluationBudget(50) });
  assert.equal(explanation.matched, true);
  if (explanation.kind !== "any") throw new Error("expected an any explanation");
  const skipped = explanation.children[1];
  if (skipped.kind !== "field") throw new Error("expected a field explanation");
  assert.match(skipped.error ?? "", /evaluation budget exceeded/);
  assert.match(skipped.reason, /^\$\.\.\* eq "x": not evaluated: path \$\.\.\*: evaluation budget/);
});

Deno.test("explanations summarize objects, arrays and long strings, however deep", () => {
  let deep: unknown = 1;
  for (let level = 0; level < 10_000; level++) deep = { next: deep };
  let deepList: unknown = [];
  for (let level = 0; level < 10_000; level++) deepList = [deepList];
  const payload = { deep, list: [deepList, [1, 2, 3], "y".repeat(100)], b: 1 };
  const explanation = explain({
    any: [
      { type: "field", path: "deep", value: "x" },
      { type: "field", path: "list", op: "in", value: ["x", 2] },
      { type: "field", path: "$..b", op: "exists", value: false },
    ],
  }, { kind: "custom", payload });
  const text = JSON.stringify(explanation);
  assert.ok(text.length < 2_000, `explanation of ${text.length} characters`);
  if (explanation.kind !== "any") throw new Error("expected an any explanation");
  const [object, list, absent] = explanation.children;
  assert.deepEqual([object.kind, list.kind, absent.kind], ["field", "field", "field"]);
  if (object.kind !== "field" || list.kind !== "field" || absent.kind !== "field") return;
  assert.deepEqual(object.values, ["object(1 key)"]);
  assert.equal(object.reason, 'deep eq "x": no value equals it (values: object(1 key))');
  assert.deepEqual(list.values, ["array(1)", "array(3)", "y".repeat(59) + "…"]);
  assert.equal(absent.matched, false, "b exists next to the deep value");
  assert.equal(explanation.matched, false);
});

function routeOf(id: string, groupId: string, filters: Route["filters"], fallback?: boolean) {
  const route: Route = {
    id,
    name: id,
    enabled: true,
    groupId,
    filters,
    targets: [{ platform: "discord", channelId: "1" }],
  };
  return fallback ? { ...route, fallback } : route;
}
const groupOf = (id: string): Group => ({
  id,
  name: id,
  members: [{ userId: "1", login: "o", role: "owner" }],
});

Deno.test("selection: each group spends its own budget; what failed is reported, not fired", async () => {
  const heavy = { type: "field", path: "$..*", op: "ne", value: "x" } as const;
  const routes = compileRoutes([
    routeOf("heavy", "noisy", [heavy]),
    routeOf("after-heavy", "noisy", [{ type: "field", path: "a", value: 1 }]),
    routeOf("events-only", "noisy", [{ type: "event", value: "custom" }]),
    routeOf("catch-all", "noisy", [], true),
    routeOf("quiet-field", "quiet", [{ type: "field", path: "a", value: 1 }]),
  ]);
  const event = {
    kind: "custom",
    provider: "custom" as const,
    payload: { a: 1, wide: wideObject(2_000) },
  };
  const pauses: number[] = [];
  const selection = await selectRoutes(
    event,
    { type: "global" },
    routes,
    [groupOf("noisy"), groupOf("quiet")],
    { stepsPerGroup: 1_000, pause: () => Promise.resolve(void pauses.push(1)) },
  );
  assert.deepEqual(selection.routes.map((route) => route.id), ["events-only", "quiet-field"]);
  assert.deepEqual(selection.notEvaluated.map(({ route }) => route.id), ["heavy", "after-heavy"]);
  assert.match(selection.notEvaluated[0].reason, /^path \$\.\.\*: evaluation budget exceeded/);
  assert.deepEqual(pauses, [], "the noisy group spent less than a pause slice");
});

Deno.test("selection: a fallback still catches an event whose regular routes failed", async () => {
  const routes = compileRoutes([
    routeOf("heavy", "noisy", [{ type: "field", path: "$..*", op: "eq", value: "x" }]),
    routeOf("catch-all", "noisy", [], true),
  ]);
  const event = { kind: "custom", provider: "custom" as const, payload: wideObject(100) };
  const selection = await selectRoutes(event, { type: "global" }, routes, [groupOf("noisy")], {
    stepsPerGroup: 50,
  });
  assert.deepEqual(selection.routes.map((route) => route.id), ["catch-all"]);
  assert.deepEqual(selection.notEvaluated.map(({ route }) => route.id), ["heavy"]);
});

Deno.test("selection: lets other work run after each slice of steps", async () => {
  const routes = compileRoutes(
    Array.from(
      { length: 4 },
      (_, index) => routeOf(`r${index}`, "busy", [{ type: "field", path: "$..*", value: "x" }]),
    ),
  );
  const event = { kind: "custom", provider: "custom" as const, payload: wideObject(10_000) };
  let pauses = 0;
  const selection = await selectRoutes(event, { type: "global" }, routes, [groupOf("busy")], {
    pause: () => Promise.resolve(void pauses++),
  });
  assert.deepEqual(selection.routes, []);
  assert.deepEqual(selection.notEvaluated, []);
  assert.equal(pauses, 4, "one pause after each route of 30,000 steps");
});
