/**
 * JSONPath for field filters. Browser-safe.
 *
 * A path is parsed once (`path_syntax.ts`) into segments of plain selectors: names, indexes,
 * `*`, slices, unions, `..` and filter expressions of a small comparison grammar. Every part
 * of every path is checked, unions included, and the parsed form is evaluated by our own code
 * (`path_eval.ts`): no user text ever reaches a JavaScript evaluator, and evaluation spends a
 * per-event budget (`budget.ts`), so no path can stall the process.
 */
import { PATH_MAX_LENGTH } from "../limits.ts";
import { EvaluationBudget } from "./budget.ts";
import { pathEvaluator } from "./path_eval.ts";
import { parsePath, PathSyntaxError, type Segment } from "./path_syntax.ts";

/**
 * Resolves a compiled path against a document: the matched values, in document order. Spends
 * steps of `budget` (a fresh default budget when none is given); throws a
 * FilterEvaluationError when it runs out.
 */
export type PathResolver = (doc: unknown, budget?: EvaluationBudget) => readonly unknown[];

/** Reads a path the way the contract does: without a leading `$` it is `$.` + path. */
export function normalizePath(path: string): string {
  const trimmed = path.trim();
  if (trimmed.startsWith("$")) return trimmed;
  if (trimmed.startsWith("[")) return "$" + trimmed;
  return "$." + trimmed;
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

function parseOrReason(path: string): Segment[] | string {
  if (typeof path !== "string" || path.trim() === "") return "invalid JSONPath: empty path";
  if (path.length > PATH_MAX_LENGTH) {
    return `invalid JSONPath: longer than ${PATH_MAX_LENGTH} characters`;
  }
  const normalized = normalizePath(path);
  const structural = checkStructure(normalized);
  if (structural) return `invalid JSONPath: ${structural}`;
  try {
    return parsePath(normalized);
  } catch (error) {
    if (error instanceof PathSyntaxError) return `invalid JSONPath: ${error.message}`;
    throw error;
  }
}

/** Checks a path; returns null when it is valid, else a one-line reason (`invalid JSONPath: …`). */
export function validatePath(path: string): string | null {
  const parsed = parseOrReason(path);
  return typeof parsed === "string" ? parsed : null;
}

/**
 * Compiles a path into a resolver. Throws a TypeError with the reason when the path is invalid
 * (see `validatePath`).
 */
export function compilePath(path: string): PathResolver {
  const parsed = parseOrReason(path);
  if (typeof parsed === "string") throw new TypeError(parsed);
  const evaluate = pathEvaluator(parsed);
  return (doc, budget = new EvaluationBudget()) => evaluate(doc, budget);
}
