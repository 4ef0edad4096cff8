/**
 * Compiles a filter tree into a predicate and runs it. An empty `all` matches
 * every event and an empty `any` matches none; `all` and `any` stop at the first child that
 * decides them. Browser-safe: the console's preview runs the same code as the delivery worker.
 */
import type { FilterNode, ForgeEvent, Route } from "../types.ts";
import { EvaluationBudget } from "./budget.ts";
import { compileEventFilter } from "./event_filter.ts";
import { compileFieldFilter, fieldMatches } from "./field_filter.ts";
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

type Predicate = (input: MatchInput & { budget: EvaluationBudget }) => boolean;

/** Refusal of an invalid filter tree; the message names the bad node (`any[2].not.value: …`). */
export class FilterValidationError extends TypeError {
  override name = "FilterValidationError";
}

function compileValidNode(node: FilterNode): Predicate {
  if ("all" in node) {
    const children = node.all.map(compileValidNode);
    return (input) => children.every((child) => child(input));
  }
  if ("any" in node) {
    const children = node.any.map(compileValidNode);
    return (input) => children.some((child) => child(input));
  }
  if ("not" in node) {
    const child = compileValidNode(node.not);
    return (input) => !child(input);
  }
  if (node.type === "event") {
    const matches = compileEventFilter(node.value);
    return (input) => matches(input.kind, input.action);
  }
  const field = compileFieldFilter(node);
  return (input) => fieldMatches(field, input.payload, input.budget);
}

/**
 * Validates and compiles a filter tree once: paths become accessors, regexes are compiled,
 * comparison values normalized. Throws FilterValidationError when the tree is invalid.
 */
export function compile(node: FilterNode): CompiledFilter {
  const issues = validateFilterNode(node);
  if (issues.length > 0) throw new FilterValidationError(describeIssues(issues));
  const predicate = compileValidNode(node);
  return (input) =>
    input.budget
      ? predicate(input as MatchInput & { budget: EvaluationBudget })
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
