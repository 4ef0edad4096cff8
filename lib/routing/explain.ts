/**
 * Explains why an event does or does not match a filter tree. The explanation mirrors the
 * tree; each node says whether it matched and why, and a field leaf lists (at most 5 of) the
 * values its path resolved to. Values are shown as scalars and summaries (`object(12 keys)`,
 * `array(3)`, long strings cut), never as raw subtrees, so an explanation stays small whatever
 * the payload. Browser-safe.
 *
 * The result is decided exactly as `compile` decides it: in the same order, stopping at the
 * same child, spending the same budget, and failing (a FilterEvaluationError) where it fails.
 * Children after the deciding one are still explained, on a separate budget; if that one runs
 * out, such a leaf says it was not evaluated instead of failing the whole explanation.
 */
import type { FieldFilter, FieldOp, FilterNode } from "../types.ts";
import { EvaluationBudget, FilterEvaluationError } from "../jsonpath/budget.ts";
import type { MatchInput } from "./compile.ts";
import { compileEventFilter } from "./event_filter.ts";
import { compileFieldFilter, evaluateField, type FieldOutcome } from "./field_filter.ts";

/** At most this many resolved values are shown per leaf. */
export const EXPLAIN_MAX_VALUES = 5;
/** Strings longer than this are cut in explanations. */
const EXPLAIN_MAX_STRING = 60;

/** One node of an explanation. */
export type Explanation =
  | { kind: "all" | "any"; matched: boolean; reason: string; children: Explanation[] }
  | { kind: "not"; matched: boolean; reason: string; child: Explanation }
  | {
    kind: "event";
    matched: boolean;
    reason: string;
    /** The event tested (`pull_request.opened`). */
    event: string;
    /** The patterns the filter wants (any of them matches). */
    wanted: string[];
  }
  | {
    kind: "field";
    matched: boolean;
    reason: string;
    path: string;
    op: FieldOp;
    /** The value the filter compares with (summarized; a list's items each), when it has one. */
    expected?: unknown;
    /** The resolved values (arrays expanded), at most 5, summarized (see `summarize`). */
    values: unknown[];
    /** How many values the path resolved to. */
    valueCount: number;
    /** Why the leaf was not evaluated (only for a leaf after the deciding one). */
    error?: string;
  };

const VERBS: Record<FieldOp, string> = {
  eq: "equals it",
  ne: "equals it",
  contains: "contains it",
  startsWith: "starts with it",
  endsWith: "ends with it",
  regex: "matches it",
  gt: "is greater",
  gte: "is greater or equal",
  lt: "is less",
  lte: "is less or equal",
  in: "is in the list",
  exists: "is present (not null)",
};

/**
 * A value as explanations show it: numbers, booleans and null as they are, strings cut to
 * EXPLAIN_MAX_STRING characters, arrays as `array(3)` and objects as `object(12 keys)`.
 */
export function summarize(value: unknown): unknown {
  if (typeof value === "string") {
    return value.length <= EXPLAIN_MAX_STRING
      ? value
      : value.slice(0, EXPLAIN_MAX_STRING - 1) + "…";
  }
  if (Array.isArray(value)) return `array(${value.length})`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).length;
    return `object(${keys} key${keys === 1 ? "" : "s"})`;
  }
  return value;
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value !== null && typeof value === "object") return String(summarize(value));
  return JSON.stringify(summarize(value));
}

function showValues(values: readonly unknown[]): string {
  const shown = values.slice(0, EXPLAIN_MAX_VALUES).map(show).join(", ");
  const rest = values.length - EXPLAIN_MAX_VALUES;
  return rest > 0 ? `${shown} and ${rest} more` : shown;
}

function fieldHead(path: string, op: FieldOp, expected: unknown): string {
  if (op === "exists") return `${path} exists${expected === false ? " false" : ""}`;
  const value = Array.isArray(expected) ? `[${showValues(expected)}]` : show(expected);
  return `${path} ${op} ${value}`;
}

function fieldReason(head: string, op: FieldOp, { values, witness }: FieldOutcome): string {
  if (values.length === 0) return `${head}: path not found`;
  if (witness >= 0) return `${head}: value ${show(values[witness])} ${VERBS[op]}`;
  return `${head}: no value ${VERBS[op]} (values: ${showValues(values)})`;
}

/** Where an explanation evaluates: the budget to spend, and whether a failure decides. */
interface Scope {
  input: MatchInput;
  budget: EvaluationBudget;
  /** The budget for children after the deciding one. */
  rest: EvaluationBudget;
  /** A failure here is the tree's failure (true until a list has been decided). */
  decisive: boolean;
}

function expectedOf(filter: FieldFilter): { expected?: unknown } {
  if (!Object.hasOwn(filter, "value")) return {};
  const value = filter.value;
  return { expected: Array.isArray(value) ? value.map(summarize) : summarize(value) };
}

function explainField(filter: FieldFilter, scope: Scope): Explanation {
  const field = compileFieldFilter(filter);
  const head = fieldHead(filter.path, field.op, filter.value);
  const leaf = { kind: "field" as const, path: filter.path, op: field.op, ...expectedOf(filter) };
  let outcome: FieldOutcome;
  try {
    outcome = evaluateField(field, scope.input.payload, scope.budget);
  } catch (error) {
    if (scope.decisive || !(error instanceof FilterEvaluationError)) throw error;
    const reason = `${head}: not evaluated: ${error.message}`;
    return { ...leaf, matched: false, reason, values: [], valueCount: 0, error: error.message };
  }
  return {
    ...leaf,
    matched: (outcome.witness >= 0) !== field.negated,
    reason: fieldReason(head, field.op, outcome),
    values: outcome.values.slice(0, EXPLAIN_MAX_VALUES).map(summarize),
    valueCount: outcome.values.length,
  };
}

function explainList(kind: "all" | "any", nodes: FilterNode[], scope: Scope): Explanation {
  const rest: Scope = { ...scope, budget: scope.rest, decisive: false };
  let decided = false;
  const children = nodes.map((child) => {
    const explained = explainNode(child, decided ? rest : scope);
    decided ||= kind === "all" ? !explained.matched : explained.matched;
    return explained;
  });
  const matchedCount = children.filter((child) => child.matched).length;
  const matched = kind === "all" ? matchedCount === children.length : matchedCount > 0;
  let reason: string;
  if (children.length === 0) {
    reason = kind === "all" ? "empty all: matches every event" : "empty any: matches no event";
  } else if (kind === "all") {
    const failed = children.find((child) => !child.matched);
    reason = failed
      ? `${matchedCount} of ${children.length} match; the first that does not: ${headOf(failed)}`
      : `all ${children.length} match`;
  } else {
    const first = children.find((child) => child.matched);
    reason = first ? `matches through: ${headOf(first)}` : `none of ${children.length} match`;
  }
  return { kind, matched, reason, children };
}

/** A node in a few words, for its parent's reason: a leaf's filter, or the kind of group. */
function headOf(node: Explanation): string {
  switch (node.kind) {
    case "all":
      return "an all-of group";
    case "any":
      return "an any-of group";
    case "not":
      return "a not group";
    case "event":
      return `event ${node.wanted.join(" or ")}`;
    case "field":
      return fieldHead(node.path, node.op, node.expected);
  }
}

function explainNode(node: FilterNode, scope: Scope): Explanation {
  if ("all" in node) return explainList("all", node.all, scope);
  if ("any" in node) return explainList("any", node.any, scope);
  if ("not" in node) {
    const child = explainNode(node.not, scope);
    const reason = child.matched ? "the inner node matched" : "the inner node did not match";
    return { kind: "not", matched: !child.matched, reason, child };
  }
  if (node.type === "field") return explainField(node, scope);
  const input = scope.input;
  const matched = compileEventFilter(node.value)(input.kind, input.action);
  const wanted = typeof node.value === "string" ? [node.value] : [...node.value];
  const event = input.action ? `${input.kind}.${input.action}` : input.kind;
  return {
    kind: "event",
    matched,
    event,
    wanted,
    reason: `wants ${wanted.join(" or ")}; this event is ${event}`,
  };
}

/**
 * Explains a filter tree against an event, spending `input.budget` (a fresh default budget
 * when absent) exactly as `compile` would. The tree must be valid (see `compile`); an invalid
 * path or regex throws a TypeError. Throws a FilterEvaluationError when the result cannot be
 * decided within the budget.
 */
export function explain(node: FilterNode, input: MatchInput): Explanation {
  const budget = input.budget ?? new EvaluationBudget();
  const rest = new EvaluationBudget(budget.steps);
  return explainNode(node, { input, budget, rest, decisive: true });
}
