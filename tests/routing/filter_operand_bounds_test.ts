/**
 * Bounded filter work for large values: an `in` list has at most MAX_IN_OPERANDS values of at
 * most FILTER_VALUE_MAX_LENGTH characters (the same rule for test-match, route saves and
 * fragment saves), a payload value is case-folded once per filter, not once per operand, and
 * every operator that reads a string charges the evaluation budget for its length.
 */
import assert from "node:assert/strict";
import { CHARS_PER_STEP, EvaluationBudget } from "../../lib/jsonpath/budget.ts";
import { compile } from "../../lib/routing/compile.ts";
import { FILTER_VALUE_MAX_LENGTH, MAX_IN_OPERANDS } from "../../lib/limits.ts";
import type { FieldOp, FilterNode } from "../../lib/types.ts";
import { route, startAdminApp } from "../_admin_helpers.ts";

const TEST_MATCH = "/admin/api/test-match";
const LIMIT_MESSAGE = `op in takes at most ${MAX_IN_OPERANDS} values`;

const inFilter = (path: string, value: unknown[], caseSensitive = false): FilterNode => ({
  type: "field",
  path,
  op: "in",
  value,
  ...(caseSensitive ? { caseSensitive } : {}),
});

Deno.test("in: a 60,000-value list is refused with 400 naming the limit by test-match, route and fragment saves", async () => {
  await using app = await startAdminApp();
  const operands = Array.from({ length: 60_000 }, (_, index) => `value-${index}`);
  const started = performance.now();
  const trial = await app.call("viewer", "POST", TEST_MATCH, {
    body: { node: inFilter("$.body", operands), payload: { body: "x".repeat(450_000) } },
  });
  assert.equal(trial.status, 400);
  assert.equal(trial.body.error, `node.value: ${LIMIT_MESSAGE}`);
  assert.ok(performance.now() - started < 5_000, "refused without evaluating");

  const overLimit = operands.slice(0, MAX_IN_OPERANDS + 1).map((_, index) => `v${index}`);
  const saved = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: {
      routes: [route("alpha", "r1", { filters: [inFilter("$.label", overLimit) as never] })],
    },
  });
  assert.equal(saved.status, 400);
  assert.equal(saved.body.error, `routes[0].filters[0].value: ${LIMIT_MESSAGE}`);

  const fragment = await app.call("owner", "PUT", "/admin/api/groups/alpha/fragments", {
    body: {
      fragments: [{
        id: "labels",
        groupId: "alpha",
        name: "Labels",
        node: { any: [inFilter("$.label", overLimit)] },
      }],
    },
  });
  assert.equal(fragment.status, 400);
  assert.equal(fragment.body.error, `fragments[0].node.any[0].value: ${LIMIT_MESSAGE}`);

  const longValue = "y".repeat(FILTER_VALUE_MAX_LENGTH + 1);
  for (const op of ["in", "eq", "contains"] as const) {
    const value = op === "in" ? ["a", longValue] : longValue;
    const answer = await app.call("viewer", "POST", TEST_MATCH, {
      body: { node: { type: "field", path: "$.label", op, value }, payload: { label: "a" } },
    });
    assert.equal(answer.status, 400, op);
    const where = op === "in" ? "node.value[1]" : "node.value";
    assert.equal(
      answer.body.error,
      `${where}: a comparison value has at most ${FILTER_VALUE_MAX_LENGTH} characters`,
    );
  }
});

Deno.test("in: 1,000 values over a 450 kB payload string are fast and correct", async () => {
  await using app = await startAdminApp();
  const operands = Array.from({ length: MAX_IN_OPERANDS }, (_, index) => `Label-${index}`);
  const payload = { body: "Ä".repeat(450_000), label: "LABEL-999", count: 7, flag: true };
  const node: FilterNode = {
    all: [
      { not: inFilter("$.body", operands) },
      inFilter("$.label", operands),
      inFilter("$.count", [...operands.slice(1), "7"]),
      inFilter("$.flag", [...operands.slice(1), "TRUE"]),
    ],
  };
  const started = performance.now();
  const answer = await app.call("viewer", "POST", TEST_MATCH, { body: { node, payload } });
  const elapsed = performance.now() - started;
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.matched, true, JSON.stringify(answer.body.explanation));
  assert.ok(elapsed < 2_000, `took ${elapsed} ms`);

  const body = compile(inFilter("$.body", operands));
  const folding = performance.now();
  for (let round = 0; round < 5; round++) {
    assert.equal(body({ kind: "custom", payload }), false);
  }
  const folded = performance.now() - folding;
  assert.ok(folded < 250, `five evaluations took ${folded} ms`);

  const caseSensitive = compile(inFilter("$.label", operands, true));
  assert.equal(caseSensitive({ kind: "custom", payload }), false);
  assert.equal(caseSensitive({ kind: "custom", payload: { label: "Label-999" } }), true);
  const numbers = compile(inFilter("$.n", [1, "2", null, false]));
  for (
    const [value, expected] of [[1, true], ["1", true], [2, true], ["02", false], [null, true]]
  ) {
    assert.equal(numbers({ kind: "custom", payload: { n: value } }), expected, String(value));
  }
  assert.equal(numbers({ kind: "custom", payload: { n: "FALSE" } }), true);
  assert.equal(numbers({ kind: "custom", payload: { n: true } }), false);
  assert.equal(numbers({ kind: "custom", payload: { n: 3 } }), false);
});

/** Steps one field filter spends on a payload with a string of `length` characters. */
function stepsFor(op: FieldOp, value: unknown, length: number): number {
  const budget = new EvaluationBudget();
  compile({ type: "field", path: "$.text", op, value })({
    kind: "custom",
    payload: { text: "a".repeat(length) },
    budget,
  });
  return budget.spent;
}

Deno.test("filter budget: every operator that reads a string is charged for its length", () => {
  const length = 64_000;
  const charge = length / CHARS_PER_STEP;
  const cases: [FieldOp, unknown][] = [
    ["contains", "zzz"],
    ["startsWith", "zzz"],
    ["endsWith", "zzz"],
    ["regex", "z+q"],
    ["regex", "(?i)z+q"],
  ];
  for (const [op, value] of cases) {
    const short = stepsFor(op, value, 10);
    const long = stepsFor(op, value, length);
    assert.ok(long - short >= charge, `${op} ${value}: ${short} then ${long}`);
  }
  const equal = FILTER_VALUE_MAX_LENGTH;
  for (const op of ["eq", "in"] as const) {
    const value = op === "in" ? ["b".repeat(equal)] : "b".repeat(equal);
    const short = stepsFor(op, value, 10);
    assert.ok(stepsFor(op, value, equal) - short >= equal / CHARS_PER_STEP, op);
    assert.equal(stepsFor(op, value, length), short, `${op}: a longer value is never read`);
  }
  const small = new EvaluationBudget(1_000);
  const contains = compile({ type: "field", path: "$.text", op: "contains", value: "zzz" });
  assert.throws(
    () => contains({ kind: "custom", payload: { text: "a".repeat(length * 2) }, budget: small }),
    /evaluation budget exceeded \(more than 1000 steps/,
  );
});
