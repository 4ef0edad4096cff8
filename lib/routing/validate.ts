/**
 * Validation of filter trees: shape, operators, comparison values, regexes,
 * JSONPath, depth and leaf limits. Every problem carries the path of the bad node, so a
 * message can say `ast.any[2].not.value: invalid regex: …`. Browser-safe.
 */
import { FILTER_VALUE_MAX_LENGTH, MAX_DEPTH, MAX_IN_OPERANDS, MAX_LEAVES } from "../limits.ts";
import type { FieldOp, FilterNode } from "../types.ts";
import { validateEventPattern } from "./event_filter.ts";
import { validatePath } from "../jsonpath/path.ts";
import { validateRegex } from "./regex.ts";
import { parseIsoTimestamp, parseNumericString } from "./values.ts";

/** The twelve operators, in the contract's order. */
export const FIELD_OPS: readonly FieldOp[] = [
  "eq",
  "ne",
  "contains",
  "startsWith",
  "endsWith",
  "regex",
  "gt",
  "gte",
  "lt",
  "lte",
  "in",
  "exists",
];

/** A location inside a value: object keys and array indexes. */
type IssuePath = (string | number)[];

/** One problem found in a filter tree. */
export interface FilterIssue {
  path: IssuePath;
  message: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const isScalar = (value: unknown) =>
  value === null || typeof value === "string" || typeof value === "boolean" ||
  (typeof value === "number" && Number.isFinite(value));

function unknownKeys(node: Json, allowed: readonly string[], path: IssuePath): FilterIssue[] {
  return Object.keys(node)
    .filter((key) => !allowed.includes(key))
    .map((key) => ({ path: [...path, key], message: `unknown key "${key}"` }));
}

function validateEventLeaf(node: Json, path: IssuePath): FilterIssue[] {
  const issues = unknownKeys(node, ["type", "value"], path);
  const value = node.value;
  const valuePath = [...path, "value"];
  if (typeof value === "string") {
    const problem = validateEventPattern(value);
    if (problem) issues.push({ path: valuePath, message: problem });
  } else if (Array.isArray(value)) {
    if (value.length === 0) {
      issues.push({ path: valuePath, message: "must list at least one event" });
    }
    value.forEach((pattern, index) => {
      const problem = validateEventPattern(pattern);
      if (problem) issues.push({ path: [...valuePath, index], message: problem });
    });
  } else {
    issues.push({
      path: valuePath,
      message: value === undefined ? "required" : "must be an event name or a list of them",
    });
  }
  return issues;
}

const TOO_LONG = `a comparison value has at most ${FILTER_VALUE_MAX_LENGTH} characters`;

const tooLong = (value: unknown) =>
  typeof value === "string" && value.length > FILTER_VALUE_MAX_LENGTH;

/** Problems of an `in` list: its length, then each value (by index). */
function inListIssues(value: unknown, path: IssuePath): FilterIssue[] {
  if (!Array.isArray(value) || value.length === 0) {
    return [{ path, message: "op in needs a non-empty list" }];
  }
  if (value.length > MAX_IN_OPERANDS) {
    return [{ path, message: `op in takes at most ${MAX_IN_OPERANDS} values` }];
  }
  if (!value.every(isScalar)) {
    return [{ path, message: "op in accepts strings, numbers, booleans or null" }];
  }
  return value.flatMap((item, index) =>
    tooLong(item) ? [{ path: [...path, index], message: TOO_LONG }] : []
  );
}

function comparisonValueProblem(
  op: Exclude<FieldOp, "in">,
  value: unknown,
  present: boolean,
): string | null {
  if (op !== "regex" && tooLong(value)) return TOO_LONG;
  switch (op) {
    case "eq":
    case "ne":
      if (!present) return `required for op ${op}`;
      return isScalar(value) ? null : "must be a string, number, boolean or null";
    case "contains":
    case "startsWith":
    case "endsWith":
      return typeof value === "string" && value !== "" ? null : `op ${op} needs a non-empty string`;
    case "regex":
      return typeof value === "string" ? validateRegex(value) : "op regex needs a pattern string";
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      if (typeof value === "number" && Number.isFinite(value)) return null;
      if (
        typeof value === "string" &&
        (parseNumericString(value) !== undefined || parseIsoTimestamp(value) !== undefined)
      ) return null;
      return `op ${op} needs a number, a numeric string or an ISO-8601 timestamp`;
    case "exists":
      return !present || typeof value === "boolean" ? null : "op exists takes true or false";
  }
}

function validateFieldLeaf(node: Json, path: IssuePath): FilterIssue[] {
  const issues = unknownKeys(node, ["type", "path", "op", "value", "caseSensitive"], path);
  if (typeof node.path !== "string") {
    issues.push({
      path: [...path, "path"],
      message: node.path === undefined ? "required" : "must be a string",
    });
  } else {
    const problem = validatePath(node.path);
    if (problem) issues.push({ path: [...path, "path"], message: problem });
  }
  if (node.caseSensitive !== undefined && typeof node.caseSensitive !== "boolean") {
    issues.push({ path: [...path, "caseSensitive"], message: "must be true or false" });
  }
  const op = node.op ?? "eq";
  if (!FIELD_OPS.includes(op as FieldOp)) {
    issues.push({
      path: [...path, "op"],
      message: `unknown operator ${JSON.stringify(op)} (expected one of ${FIELD_OPS.join(", ")})`,
    });
    return issues;
  }
  if (op === "in") return [...issues, ...inListIssues(node.value, [...path, "value"])];
  const problem = comparisonValueProblem(
    op as Exclude<FieldOp, "in">,
    node.value,
    "value" in node,
  );
  if (problem) issues.push({ path: [...path, "value"], message: problem });
  return issues;
}

interface Walk {
  issues: FilterIssue[];
  leaves: number;
}

function walk(node: unknown, path: IssuePath, depth: number, state: Walk): void {
  if (!isObject(node)) {
    state.issues.push({ path, message: "expected a filter node (an object)" });
    return;
  }
  if (depth > MAX_DEPTH) {
    state.issues.push({ path, message: `too deep: at most ${MAX_DEPTH} levels` });
    return;
  }
  const kinds = ["type", "all", "any", "not"].filter((key) => key in node);
  if (kinds.length !== 1) {
    state.issues.push({
      path,
      message: kinds.length === 0
        ? "expected one of type, all, any or not"
        : `a node has exactly one of type, all, any or not (found ${kinds.join(", ")})`,
    });
    return;
  }
  const [kind] = kinds;
  if (kind === "type") {
    state.leaves++;
    if (node.type === "event") state.issues.push(...validateEventLeaf(node, path));
    else if (node.type === "field") state.issues.push(...validateFieldLeaf(node, path));
    else {
      state.issues.push({ path: [...path, "type"], message: 'must be "event" or "field"' });
    }
    return;
  }
  state.issues.push(...unknownKeys(node, [kind], path));
  const children = node[kind];
  if (kind === "not") {
    walk(children, [...path, "not"], depth + 1, state);
    return;
  }
  if (!Array.isArray(children)) {
    state.issues.push({ path: [...path, kind], message: "must be a list of filter nodes" });
    return;
  }
  children.forEach((child, index) => walk(child, [...path, kind, index], depth + 1, state));
}

/** Checks a filter tree; returns every problem found (empty when the tree is valid). */
export function validateFilterNode(node: unknown): FilterIssue[] {
  const state: Walk = { issues: [], leaves: 0 };
  walk(node, [], 1, state);
  if (state.leaves > MAX_LEAVES) {
    state.issues.push({
      path: [],
      message: `too many leaves: ${state.leaves} (at most ${MAX_LEAVES})`,
    });
  }
  return state.issues;
}

/**
 * The leaves (conditions) of a valid filter tree. A tree without any (`{ all: [] }`, `{ any: [] }`,
 * groups of empty groups) has no condition of its own: an empty `all` matches every event.
 */
export function filterLeafCount(node: FilterNode): number {
  if ("all" in node) return node.all.reduce((sum, child) => sum + filterLeafCount(child), 0);
  if ("any" in node) return node.any.reduce((sum, child) => sum + filterLeafCount(child), 0);
  if ("not" in node) return filterLeafCount(node.not);
  return 1;
}

/** Checks one stored leaf (an element of a route's `filters`). */
export function validateFilter(filter: unknown): FilterIssue[] {
  if (isObject(filter) && !("type" in filter)) {
    return [{ path: ["type"], message: 'required ("event" or "field")' }];
  }
  return validateFilterNode(filter);
}

/** Renders an issue path the way messages show it: `any[2].not.value`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(String(segment))) {
      text += text === "" ? String(segment) : `.${String(segment)}`;
    } else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

/** One line naming the first problem: `any[2].not.value: invalid regex: …`. */
export function describeIssues(issues: readonly FilterIssue[], prefix: IssuePath = []): string {
  const [first] = issues;
  const where = formatIssuePath([...prefix, ...first.path]);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return `${where ? `${where}: ` : ""}${first.message}${more}`;
}
