/**
 * Explains why an event does or does not match a filter tree. The explanation mirrors the
 * tree; each node says whether it matched and why, and a field leaf lists (at most 5 of) the
 * values its path resolved to. Browser-safe.
 */
import type { FieldFilter, FieldOp, FilterNode } from "../types.ts";
import type { MatchInput } from "./compile.ts";
import { compileEventFilter } from "./event_filter.ts";
import { compileFieldFilter } from "./field_filter.ts";
import { flattenValues } from "./values.ts";

/** At most this many resolved values are shown per leaf. */
export const EXPLAIN_MAX_VALUES = 5;
/** Strings longer than this are cut in explanations. */
export const EXPLAIN_MAX_STRING = 60;

/** One node of an explanation. */
export type Explanation =
  | { kind: "all" | "any"; matched: boolean; reason: string; children: Explanation[] }
  | { kind: "not"; matched: boolean; reason: string; child: Explanation }
  | { kind: "event"; matched: boolean; reason: string; event: string }
  | {
    kind: "field";
    matched: boolean;
    reason: string;
    path: string;
    op: FieldOp;
    /** The resolved values (arrays expanded), at most 5, long strings cut. */
    values: unknown[];
    /** How many values the path resolved to. */
    valueCount: number;
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

function shorten(value: unknown): unknown {
  if (typeof value !== "string" || value.length <= EXPLAIN_MAX_STRING) return value;
  return value.slice(0, EXPLAIN_MAX_STRING - 1) + "…";
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return `[${value.map(show).join(", ")}]`;
  if (value !== null && typeof value === "object") return "{…}";
  return JSON.stringify(shorten(value));
}

function showValues(values: readonly unknown[]): string {
  const shown = values.slice(0, EXPLAIN_MAX_VALUES).map(show).join(", ");
  const rest = values.length - EXPLAIN_MAX_VALUES;
  return rest > 0 ? `${shown} and ${rest} more` : shown;
}

function fieldReason(filter: FieldFilter, op: FieldOp, values: unknown[], witness: number) {
  const head = op === "exists"
    ? `${filter.path} exists${filter.value === false ? " false" : ""}`
    : `${filter.path} ${op} ${show(filter.value)}`;
  if (values.length === 0) return `${head}: path not found`;
  if (witness >= 0) return `${head}: value ${show(values[witness])} ${VERBS[op]}`;
  return `${head}: no value ${VERBS[op]} (values: ${showValues(values)})`;
}

function explainField(filter: FieldFilter, input: MatchInput): Explanation {
  const field = compileFieldFilter(filter);
  const values = flattenValues(field.resolve(input.payload));
  const witness = values.findIndex(field.testValue);
  return {
    kind: "field",
    matched: (witness >= 0) !== field.negated,
    reason: fieldReason(filter, field.op, values, witness),
    path: filter.path,
    op: field.op,
    values: values.slice(0, EXPLAIN_MAX_VALUES).map(shorten),
    valueCount: values.length,
  };
}

function explainList(kind: "all" | "any", nodes: FilterNode[], input: MatchInput): Explanation {
  const children = nodes.map((child) => explain(child, input));
  const matchedCount = children.filter((child) => child.matched).length;
  const matched = kind === "all" ? matchedCount === children.length : matchedCount > 0;
  let reason: string;
  if (children.length === 0) {
    reason = kind === "all" ? "empty all: matches every event" : "empty any: matches no event";
  } else if (kind === "all") {
    const failed = children.findIndex((child) => !child.matched);
    reason = matched
      ? `all ${children.length} matched`
      : `${kind}[${failed}] did not match (${matchedCount} of ${children.length} matched)`;
  } else {
    const first = children.findIndex((child) => child.matched);
    reason = matched ? `${kind}[${first}] matched` : `none of ${children.length} matched`;
  }
  return { kind, matched, reason, children };
}

/**
 * Explains a filter tree against an event. The tree must be valid (see `compile`); an invalid
 * path or regex throws a TypeError.
 */
export function explain(node: FilterNode, input: MatchInput): Explanation {
  if ("all" in node) return explainList("all", node.all, input);
  if ("any" in node) return explainList("any", node.any, input);
  if ("not" in node) {
    const child = explain(node.not, input);
    const reason = child.matched ? "the inner node matched" : "the inner node did not match";
    return { kind: "not", matched: !child.matched, reason, child };
  }
  if (node.type === "field") return explainField(node, input);
  const matched = compileEventFilter(node.value)(input.kind, input.action);
  const wanted = typeof node.value === "string" ? node.value : node.value.join(" or ");
  const event = input.action ? `${input.kind}.${input.action}` : input.kind;
  return {
    kind: "event",
    matched,
    event,
    reason: `event ${wanted}: ${event} ${matched ? "matches" : "does not match"}`,
  };
}
