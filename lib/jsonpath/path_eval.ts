/**
 * Evaluation of parsed paths over a payload, in document order (the order jsonpath-plus
 * gives): a union yields its selectors' values one selector after the other, and `..` visits
 * a value, then its descendants depth first. Names read own properties only. The walk is
 * iterative, so no payload depth can overflow the stack, and every value it touches spends
 * budget steps. Browser-safe.
 */
import type { EvaluationBudget } from "./budget.ts";
import { evaluateExpression, type Expression, ownProperty } from "./path_expression.ts";
import type { Segment, Selector } from "./path_syntax.ts";

const NO_CHILDREN: readonly unknown[] = Object.freeze([]);

/**
 * An array's elements or an object's values in key order; nothing for anything else. (Reading
 * values by `Object.keys` is several times faster than `Object.values` on large objects.)
 */
function childrenOf(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value === null || typeof value !== "object") return NO_CHILDREN;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const children = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) children[i] = record[keys[i]];
  return children;
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/** The indexes a slice selects, as jsonpath-plus (and RFC 9535) count them. */
function sliceIndexes(length: number, selector: Extract<Selector, { type: "slice" }>): number[] {
  const step = selector.step ?? 1;
  if (step === 0) return [];
  const normalize = (index: number) => (index < 0 ? index + length : index);
  const start = normalize(selector.start ?? (step > 0 ? 0 : length - 1));
  const end = normalize(selector.end ?? (step > 0 ? length : -length - 1));
  const indexes: number[] = [];
  if (step > 0) {
    for (let i = clamp(start, 0, length); i < clamp(end, 0, length); i += step) indexes.push(i);
  } else {
    for (let i = clamp(start, -1, length - 1); i > clamp(end, -1, length - 1); i += step) {
      indexes.push(i);
    }
  }
  return indexes;
}

/** Steps one filter test costs: one per node of the expression. */
function expressionCost(expression: Expression): number {
  switch (expression.type) {
    case "literal":
      return 1;
    case "current":
      return 1 + expression.keys.length;
    case "not":
      return 1 + expressionCost(expression.operand);
    case "logical":
    case "compare":
      return 1 + expressionCost(expression.left) + expressionCost(expression.right);
  }
}

function applySelector(
  selector: Selector,
  value: unknown,
  out: unknown[],
  budget: EvaluationBudget,
): void {
  switch (selector.type) {
    case "name":
      if (value && Object.hasOwn(value as object, selector.name)) {
        budget.spend();
        out.push(ownProperty(value, selector.name));
      }
      return;
    case "wildcard": {
      const children = childrenOf(value);
      budget.spend(children.length);
      for (const child of children) out.push(child);
      return;
    }
    case "slice": {
      if (!Array.isArray(value)) return;
      const indexes = sliceIndexes(value.length, selector);
      budget.spend(indexes.length);
      for (const index of indexes) out.push(value[index]);
      return;
    }
    case "filter": {
      const children = childrenOf(value);
      budget.spend(children.length * expressionCost(selector.expression));
      for (const child of children) {
        if (evaluateExpression(selector.expression, child)) out.push(child);
      }
      return;
    }
  }
}

function applySelectors(
  selectors: readonly Selector[],
  value: unknown,
  out: unknown[],
  budget: EvaluationBudget,
): void {
  for (const selector of selectors) applySelector(selector, value, out, budget);
}

/** Applies the selectors to `value` and to each of its descendants, depth first. */
function applyToDescendants(
  selectors: readonly Selector[],
  value: unknown,
  out: unknown[],
  budget: EvaluationBudget,
): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    applySelectors(selectors, node, out, budget);
    const children = childrenOf(node);
    budget.spend(children.length);
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== null && typeof child === "object") pending.push(child);
    }
  }
}

/** The keys of a path made only of single names (`a.b[0].c`), or null. */
function keyChain(segments: readonly Segment[]): string[] | null {
  const keys: string[] = [];
  for (const { descendant, selectors } of segments) {
    const [selector] = selectors;
    if (descendant || selectors.length !== 1 || selector.type !== "name") return null;
    keys.push(selector.name);
  }
  return keys;
}

/**
 * Prepares a parsed path for evaluation: `evaluate(doc, budget)` gives the values the path
 * yields, in document order, and throws a FilterEvaluationError when the budget runs out. A
 * chain of names is read directly, without intermediate lists.
 */
export function pathEvaluator(
  segments: readonly Segment[],
): (doc: unknown, budget: EvaluationBudget) => unknown[] {
  const keys = keyChain(segments);
  if (!keys) return (doc, budget) => evaluatePath(segments, doc, budget);
  return (doc, budget) => {
    let current = doc;
    for (const key of keys) {
      if (!current || !Object.hasOwn(current as object, key)) return [];
      current = (current as Record<string, unknown>)[key];
    }
    budget.spend(keys.length);
    return [current];
  };
}

/** The values a parsed path yields from `doc`, in document order (see `pathEvaluator`). */
function evaluatePath(
  segments: readonly Segment[],
  doc: unknown,
  budget: EvaluationBudget,
): unknown[] {
  let current: unknown[] = [doc];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const value of current) {
      if (segment.descendant) applyToDescendants(segment.selectors, value, next, budget);
      else applySelectors(segment.selectors, value, next, budget);
    }
    if (next.length === 0) return next;
    current = next;
  }
  return current;
}
