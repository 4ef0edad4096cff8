/**
 * Compiles a filter tree into a predicate and runs it. An empty `all` matches
 * every event and an empty `any` matches none; `all` and `any` stop at the first child that
 * decides them. Browser-safe: the console's preview runs the same code as the delivery worker.
 */
import type { Filter, FilterNode, ForgeEvent, Route } from "../types.ts";
import { EvaluationBudget } from "../jsonpath/budget.ts";
import { compileEventFilter } from "./event_filter.ts";
import { compileFieldFilter, fieldMatches } from "./field_filter.ts";
import type { LeafMemo } from "./leaf_memo.ts";
import { describeIssues, validateFilterNode } from "./validate.ts";

/**
 * What a filter looks at: the event's kind and action, and its payload; `budget` is the
 * event's evaluation budget (a fresh default one when absent).
 */
export type MatchInput = Pick<ForgeEvent, "kind" | "action"> & {
  payload: unknown;
  budget?: EvaluationBudget;
};

/**
 * A compiled filter tree. Throws a FilterEvaluationError when a path cannot be evaluated
 * within the budget: the event is then neither matched nor unmatched.
 */
export type CompiledFilter = (input: MatchInput) => boolean;

/** One event being evaluated: its budget, and (for a route set) its leaves' remembered results. */
export type EvaluationInput = MatchInput & { budget: EvaluationBudget; memo?: LeafMemo };

/** A compiled node: whether the event being evaluated passes it. */
export type Predicate = (input: EvaluationInput) => boolean;

/** Refusal of an invalid filter tree; the message names the bad node (`any[2].not.value: …`). */
export class FilterValidationError extends TypeError {
  override name = "FilterValidationError";
}

/** A leaf compiled on its own, evaluated afresh every time. */
function directLeaf(filter: Filter): Predicate {
  if (filter.type === "event") {
    const matches = compileEventFilter(filter.value);
    return (input) => matches(input.kind, input.action);
  }
  const field = compileFieldFilter(filter);
  return (input) => fieldMatches(field, input.payload, input.budget);
}

/**
 * Compiles a valid tree with plain loops; `leaf` compiles each leaf (directly, or shared
 * with other routes through a leaf table).
 */
export function compileTree(node: FilterNode, leaf: (filter: Filter) => Predicate): Predicate {
  if ("all" in node) {
    const children = node.all.map((child) => compileTree(child, leaf));
    const count = children.length;
    if (count === 1) return children[0];
    return (input) => {
      for (let i = 0; i < count; i++) if (!children[i](input)) return false;
      return true;
    };
  }
  if ("any" in node) {
    const children = node.any.map((child) => compileTree(child, leaf));
    const count = children.length;
    if (count === 1) return children[0];
    return (input) => {
      for (let i = 0; i < count; i++) if (children[i](input)) return true;
      return false;
    };
  }
  if ("not" in node) {
    const child = compileTree(node.not, leaf);
    return (input) => !child(input);
  }
  return leaf(node);
}

/** Throws a FilterValidationError naming the first bad nodes when a tree is invalid. */
export function assertValidNode(node: FilterNode): void {
  const issues = validateFilterNode(node);
  if (issues.length > 0) throw new FilterValidationError(describeIssues(issues));
}

/**
 * Validates and compiles a filter tree once: paths become accessors, regexes are compiled,
 * comparison values normalized. Throws FilterValidationError when the tree is invalid.
 */
export function compile(node: FilterNode): CompiledFilter {
  assertValidNode(node);
  const predicate = compileTree(node, directLeaf);
  return (input) =>
    input.budget
      ? predicate(input as EvaluationInput)
      : predicate({ ...input, budget: new EvaluationBudget() });
}

/** Whether an event matches a compiled filter. */
export function match(compiled: CompiledFilter, input: MatchInput): boolean {
  return compiled(input);
}

/** The tree a route is matched with: its `ast` when present, else all of its `filters`. */
export function routeFilterNode(route: Pick<Route, "ast" | "filters">): FilterNode {
  return route.ast ?? { all: route.filters };
}
