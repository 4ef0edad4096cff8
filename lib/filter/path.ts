/**
 * JSONPath resolution for field filters (CONTRACT §4). Browser-safe.
 *
 * A path is compiled once: simple paths (`a.b[0].c`, `labels[*].name`, `a['x.y']`) become
 * direct accessors; anything else (`..`, slices, unions, filter expressions) is evaluated by
 * jsonpath-plus. Both give the same values in the same order. Filter expressions are limited
 * to comparisons of properties and literals, so a path can never run user code or a regex.
 */
import { JSONPath, JSONPathClass } from "jsonpath-plus";

/** Longest accepted path, in characters. */
export const PATH_MAX_LENGTH = 512;

/** Resolves a compiled path against a document: the matched values, in document order. */
export type PathResolver = (doc: unknown) => readonly unknown[];

type Step = { kind: "key"; key: string } | { kind: "wildcard" };

const NO_VALUES: readonly unknown[] = Object.freeze([]);
const BARE_NAME = /^[A-Za-z0-9_-]+/;
const BRACKET_STEP =
  /^\[(?:(\*)|(\d+)|'([^'"\\*~^@$(),:?[\];%#`]*)'|"([^'"\\*~^@$(),:?[\];%#`]*)")\]/;

/** Reads a path the way the contract does: without a leading `$` it is `$.` + path. */
export function normalizePath(path: string): string {
  const trimmed = path.trim();
  if (trimmed.startsWith("$")) return trimmed;
  if (trimmed.startsWith("[")) return "$" + trimmed;
  return "$." + trimmed;
}

/** Splits a normalized path into direct-access steps, or null when jsonpath-plus is needed. */
function parseSimpleSteps(normalized: string): Step[] | null {
  const steps: Step[] = [];
  let rest = normalized.slice(1);
  while (rest.length > 0) {
    if (rest.startsWith(".*")) {
      steps.push({ kind: "wildcard" });
      rest = rest.slice(2);
      continue;
    }
    if (rest.startsWith(".")) {
      const name = BARE_NAME.exec(rest.slice(1));
      if (!name) return null;
      steps.push({ kind: "key", key: name[0] });
      rest = rest.slice(1 + name[0].length);
      continue;
    }
    const bracket = BRACKET_STEP.exec(rest);
    if (!bracket) return null;
    const [whole, star, index, single, double] = bracket;
    steps.push(star ? { kind: "wildcard" } : { kind: "key", key: index ?? single ?? double });
    rest = rest.slice(whole.length);
  }
  return steps;
}

/** True when the path compiles to a direct accessor (no jsonpath-plus at match time). */
export function isSimplePath(path: string): boolean {
  return parseSimpleSteps(normalizePath(path)) !== null;
}

function ownValue(container: unknown, key: string): { found: boolean; value?: unknown } {
  if (!container || !Object.hasOwn(container as object, key)) return { found: false };
  return { found: true, value: (container as Record<string, unknown>)[key] };
}

function keyChainResolver(keys: string[]): PathResolver {
  return (doc) => {
    let current: unknown = doc;
    for (const key of keys) {
      if (!current || !Object.hasOwn(current as object, key)) return NO_VALUES;
      current = (current as Record<string, unknown>)[key];
    }
    return [current];
  };
}

function stepsResolver(steps: Step[]): PathResolver {
  return (doc) => {
    let current: unknown[] = [doc];
    for (const step of steps) {
      const next: unknown[] = [];
      for (const value of current) {
        if (step.kind === "key") {
          const own = ownValue(value, step.key);
          if (own.found) next.push(own.value);
        } else if (Array.isArray(value)) {
          for (const element of value) next.push(element);
        } else if (value !== null && typeof value === "object") {
          for (const element of Object.values(value)) next.push(element);
        }
      }
      if (next.length === 0) return NO_VALUES;
      current = next;
    }
    return current;
  };
}

function jsonPathPlusResolver(normalized: string): PathResolver {
  return (doc) => {
    if (doc === null || typeof doc !== "object") return NO_VALUES;
    try {
      const found = JSONPath({ path: normalized, json: doc, wrap: true, eval: "safe" });
      return Array.isArray(found) ? found : NO_VALUES;
    } catch {
      return NO_VALUES;
    }
  };
}

/**
 * Compiles a path into a resolver. Throws a TypeError with the reason when the path is invalid
 * (see `validatePath`).
 */
export function compilePath(path: string): PathResolver {
  const problem = validatePath(path);
  if (problem) throw new TypeError(problem);
  const normalized = normalizePath(path);
  const steps = parseSimpleSteps(normalized);
  if (!steps) return jsonPathPlusResolver(normalized);
  if (steps.every((step) => step.kind === "key")) {
    return keyChainResolver(steps.map((step) => (step as { key: string }).key));
  }
  return stepsResolver(steps);
}

/** Evaluates a path with jsonpath-plus on every call; the reference the compiled form must equal. */
export function resolvePathNaively(path: string, doc: unknown): readonly unknown[] {
  return jsonPathPlusResolver(normalizePath(path))(doc);
}

/** Checks a path; returns null when it is valid, else a one-line reason (`invalid JSONPath: …`). */
export function validatePath(path: string): string | null {
  if (typeof path !== "string" || path.trim() === "") return "invalid JSONPath: empty path";
  if (path.length > PATH_MAX_LENGTH) {
    return `invalid JSONPath: longer than ${PATH_MAX_LENGTH} characters`;
  }
  const normalized = normalizePath(path);
  if (parseSimpleSteps(normalized)) return null;
  const structural = checkStructure(normalized);
  if (structural) return `invalid JSONPath: ${structural}`;
  for (const expression of scriptExpressions(normalized)) {
    const problem = checkExpression(expression);
    if (problem) return `invalid JSONPath: ${problem}`;
  }
  try {
    JSONPath({ path: normalized, json: {}, wrap: true, eval: "safe" });
  } catch (error) {
    return `invalid JSONPath: ${(error as Error).message}`;
  }
  return null;
}

/** Finds unbalanced brackets, parentheses and quotes, empty brackets and dangling dots. */
function checkStructure(normalized: string): string | null {
  const open: string[] = [];
  let quote: string | null = null;
  for (let i = 0; i < normalized.length; i++) {
    const char = normalized[i];
    if (quote) {
      if (char === "\\") i++;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    else if (char === "[" || char === "(") {
      if (char === "[" && normalized[i + 1] === "]") return "empty brackets";
      open.push(char);
    } else if (char === "]" || char === ")") {
      const expected = char === "]" ? "[" : "(";
      if (open.pop() !== expected) return `unexpected "${char}"`;
    }
  }
  if (quote) return "unclosed quote";
  if (open.length > 0) return `unclosed "${open[open.length - 1]}"`;
  if (normalized.endsWith(".")) return "ends with a dot";
  return null;
}

/** The script parts of a path: filter expressions `?(…)` and script expressions `(…)`. */
function scriptExpressions(normalized: string): string[] {
  return JSONPath.toPathArray(normalized)
    .filter((part) => /^\??\(.*\)$/s.test(part))
    .map((part) => part.replace(/^\??\(/, "").slice(0, -1));
}

type ScriptNode = { type: string; [key: string]: unknown };
type ScriptParser = new (code: string) => { ast: ScriptNode };

const scriptParser = (JSONPathClass.prototype as unknown as { safeVm: { Script: ScriptParser } })
  .safeVm.Script;

const ALLOWED_BINARY = new Set([
  "==",
  "===",
  "!=",
  "!==",
  "<",
  "<=",
  ">",
  ">=",
  "&&",
  "||",
  "+",
  "-",
  "*",
  "/",
  "%",
]);
const ALLOWED_UNARY = new Set(["!", "-"]);

/** Accepts only comparisons and arithmetic on `@` properties and literals: no calls, no regex. */
function checkExpression(expression: string): string | null {
  const code = expression.replace(
    /@(parentProperty|parent|property|root|path)?(?![\w$])/g,
    (_, name) => "_$_" + (name ?? "v"),
  );
  let ast: ScriptNode;
  try {
    ast = new scriptParser(code).ast;
  } catch (error) {
    return `bad expression "${expression}": ${(error as Error).message}`;
  }
  const problem = checkScriptNode(ast);
  return problem ? `expression "${expression}": ${problem}` : null;
}

function checkScriptNode(node: ScriptNode): string | null {
  switch (node.type) {
    case "Literal":
      return node.value instanceof RegExp ? "regex literals are not allowed" : null;
    case "Identifier":
      return String(node.name).startsWith("_$_") ? null : `unknown name "${node.name}"`;
    case "MemberExpression": {
      const property = node.property as ScriptNode;
      if (node.computed && property.type !== "Literal") return "computed property names";
      return checkScriptNode(node.object as ScriptNode) ??
        (node.computed ? checkScriptNode(property) : null);
    }
    case "BinaryExpression":
    case "LogicalExpression":
      if (!ALLOWED_BINARY.has(String(node.operator))) {
        return `operator "${node.operator}" is not allowed`;
      }
      return checkScriptNode(node.left as ScriptNode) ?? checkScriptNode(node.right as ScriptNode);
    case "UnaryExpression":
      if (!ALLOWED_UNARY.has(String(node.operator))) {
        return `operator "${node.operator}" is not allowed`;
      }
      return checkScriptNode(node.argument as ScriptNode);
    case "CallExpression":
      return "function calls are not allowed";
    default:
      return `${node.type} is not allowed`;
  }
}
