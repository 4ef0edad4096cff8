/**
 * Explanations in plain words: each node named as the route editor names it, and the sentence
 * that says why a route would or would not send an event ("the route wants label `bug`; this
 * event has `docs`"). Paths, values and event names are set between backticks, which the
 * console shows as code. Browser-safe.
 */
import type { FieldOp } from "../types.ts";
import { EXPLAIN_MAX_VALUES, type Explanation } from "./explain.ts";

type FieldNode = Extract<Explanation, { kind: "field" }>;

/** Each operator in words, as the route editor's operator menu lists it. */
export const OP_LABELS: Record<FieldOp, string> = {
  eq: "equals",
  ne: "does not equal",
  contains: "contains",
  startsWith: "starts with",
  endsWith: "ends with",
  regex: "matches regex",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  in: "is one of",
  exists: "exists",
};

/** The groups as the route editor names them. */
const GROUP_NAMES = {
  all: "All of these match",
  any: "Any of these matches",
  not: "Not: this must not match",
} as const;

/** Paths people know by a name, and that name (checked without a leading `$.`). */
const NOUNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\.)labels\[\*\]\.name$/, "label"],
  [/(^|\.)base\.ref$/, "base branch"],
  [/(^|\.)head\.ref$/, "head branch"],
  [/^repository\.full_name$/, "repository"],
  [/^sender\.login$/, "sender"],
];

function nounOf(path: string): string | undefined {
  const plain = path.replace(/^\$\.?/, "");
  return NOUNS.find(([pattern]) => pattern.test(plain))?.[1];
}

/** A value or name as code: strings as they are, anything else as JSON. */
export function code(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "nothing";
  return `\`${text}\``;
}

function orList(value: unknown): string {
  const items = Array.isArray(value) ? value : [value];
  return items.length === 0 ? "nothing" : items.map(code).join(" or ");
}

function valueList(node: FieldNode): string {
  const shown = node.values.map(code).join(", ");
  const rest = node.valueCount - Math.min(node.valueCount, EXPLAIN_MAX_VALUES);
  return rest > 0 ? `${shown} and ${rest} more` : shown;
}

/** The other operators after "the route wants <path>". */
const WANTS: Partial<Record<FieldOp, string>> = {
  contains: "to contain",
  startsWith: "to start with",
  endsWith: "to end with",
  gt: "to be greater than",
  gte: "to be at least",
  lt: "to be less than",
  lte: "to be at most",
};

/** What a field filter asks for, after "the route wants". */
function fieldWants(node: FieldNode): string {
  const noun = nounOf(node.path);
  const subject = noun ? `the ${noun}` : code(node.path);
  const value = code(node.expected);
  switch (node.op) {
    case "eq":
      return noun ? `${noun} ${value}` : `${subject} to equal ${value}`;
    case "in":
      return noun
        ? `${noun} ${orList(node.expected)}`
        : `${subject} to be ${orList(node.expected)}`;
    case "ne":
      return noun ? `no ${noun} ${value}` : `${subject} not to equal ${value}`;
    case "exists":
      return node.expected === false
        ? `no ${noun ?? code(node.path)}`
        : `${noun ? `a ${noun}` : code(node.path)} to be present`;
    case "regex":
      return `${subject} to match the regex ${value}`;
    default:
      return `${subject} ${WANTS[node.op]} ${value}`;
  }
}

/** What the event has where a field filter looked. */
function fieldHas(node: FieldNode): string {
  if (node.valueCount === 0) return `this event has no ${nounOf(node.path) ?? code(node.path)}`;
  return `this event has ${valueList(node)}`;
}

/** The name of a node as the route editor shows it. */
export function nodeName(node: Explanation): string {
  switch (node.kind) {
    case "all":
    case "any":
    case "not":
      return GROUP_NAMES[node.kind];
    case "event":
      return `Event ${node.wanted.join(" or ")}`;
    case "field":
      if (node.op === "exists") {
        return `${node.path} ${node.expected === false ? "is missing" : "exists"}`;
      }
      return `${node.path} ${OP_LABELS[node.op]} ${
        Array.isArray(node.expected)
          ? node.expected.map((item) => JSON.stringify(item)).join(", ")
          : JSON.stringify(node.expected)
      }`;
  }
}

/** Why a node that does not match does not, in words (for "Did not fire: …"). */
export function whyNot(node: Explanation): string {
  switch (node.kind) {
    case "all": {
      const failed = node.children.find((child) => !child.matched);
      return failed ? whyNot(failed) : "all of its filters match";
    }
    case "any":
      if (node.children.length === 0) return "an empty “Any of” group matches no event";
      if (node.children.length === 1) return whyNot(node.children[0]);
      return `none of its ${node.children.length} alternatives match (the first: ${
        whyNot(node.children[0])
      })`;
    case "not":
      return `the route leaves out events where ${whyMatched(node.child)}`;
    case "event":
      return `the route wants ${orList(node.wanted)} events; this is ${code(node.event)}`;
    case "field":
      if (node.error) {
        return `the filter on ${code(node.path)} could not be evaluated: ${node.error}`;
      }
      return `the route wants ${fieldWants(node)}; ${fieldHas(node)}`;
  }
}

/** At most this many matching filters are named in a "Fired: …" sentence. */
const NAMED_MATCHES = 3;

/** What matched in a node that matches, in words (for "Fired: …"). */
export function whyMatched(node: Explanation): string {
  switch (node.kind) {
    case "all": {
      if (node.children.length === 0) return "the route takes every event";
      const named = node.children.slice(0, NAMED_MATCHES).map(whyMatched).join("; ");
      const rest = node.children.length - NAMED_MATCHES;
      return rest > 0 ? `${named}; and ${rest} more filter${rest === 1 ? "" : "s"} match` : named;
    }
    case "any": {
      const first = node.children.find((child) => child.matched);
      return first ? whyMatched(first) : "none of its alternatives match";
    }
    case "not":
      return `it is not left out: ${whyNot(node.child)}`;
    case "event":
      return `the event is ${code(node.event)}`;
    case "field": {
      const noun = nounOf(node.path);
      if (node.op === "exists" && node.expected === false || node.valueCount === 0) {
        return `it has no ${noun ?? code(node.path)}`;
      }
      if (node.op === "ne") {
        return noun
          ? `it has no ${noun} ${code(node.expected)}`
          : `${code(node.path)} is not ${code(node.expected)}`;
      }
      return noun
        ? `it has ${noun} ${valueList(node)}`
        : `${code(node.path)} is ${valueList(node)}`;
    }
  }
}

/** One node's own line in a tree of explanations: a leaf's sentence, a group's count. */
export function nodeLine(node: Explanation): string {
  switch (node.kind) {
    case "all":
    case "any": {
      const count = node.children.length;
      if (count === 0) {
        return node.kind === "all" ? "empty: takes every event" : "empty: matches no event";
      }
      const matched = node.children.filter((child) => child.matched).length;
      return `${matched} of ${count} match; ${node.kind === "all" ? "all must" : "one is enough"}`;
    }
    case "not":
      return node.child.matched
        ? "the filter inside matches, so this does not"
        : "the filter inside does not match, so this does";
    default:
      return node.matched ? whyMatched(node) : whyNot(node);
  }
}
