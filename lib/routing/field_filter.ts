/**
 * A compiled field filter (the operators work as `values.ts` says). The path, the regex and the
 * comparison value are prepared once; testing an event then only walks the payload, spending
 * the event's evaluation budget. Browser-safe.
 */
import type { FieldFilter, FieldOp } from "../types.ts";
import {
  type EvaluationBudget,
  FilterEvaluationError,
  REGEX_CHARS_PER_STEP,
} from "../jsonpath/budget.ts";
import { compilePath, type PathResolver } from "../jsonpath/path.ts";
import { compileRegex } from "./regex.ts";
import { compareOrder, EqualitySet, flattenValues, foldCase, toOrderOperand } from "./values.ts";

/** A field filter ready to test payloads. */
export interface CompiledField {
  op: FieldOp;
  /** The path as written. */
  path: string;
  /** The path's values before arrays are expanded. */
  resolve: PathResolver;
  /** The operator's test of one value (for `ne`: equality; for `exists`: not null). */
  testValue: ValueTest;
  /** `ne` and `exists: false` match when no value passes `testValue`. */
  negated: boolean;
}

/** An operator's test of one payload value; it charges the budget for the text it reads. */
type ValueTest = (value: unknown, budget: EvaluationBudget) => boolean;

/**
 * A string operator's test: the payload text is case-folded once and searched, both charged
 * by its length.
 */
function stringTest(
  value: unknown,
  caseSensitive: boolean,
  test: (actual: string, expected: string) => boolean,
): ValueTest {
  const expected = foldCase(String(value), caseSensitive);
  return (actual, budget) => {
    if (typeof actual !== "string") return false;
    budget.spendChars(actual.length * (caseSensitive ? 1 : 2));
    return test(foldCase(actual, caseSensitive), expected);
  };
}

function orderTest(value: unknown, accept: (difference: number) => boolean): ValueTest {
  const operand = toOrderOperand(value);
  return (actual: unknown) => {
    const difference = compareOrder(actual, operand);
    return difference !== undefined && accept(difference);
  };
}

function equalityTest(values: readonly unknown[], caseSensitive: boolean): ValueTest {
  const set = new EqualitySet(values, caseSensitive);
  return (actual, budget) => set.matches(actual, budget);
}

/** The operator's test of one payload value, with the comparison value prepared once. */
export function compileValueTest(filter: FieldFilter, op: FieldOp): ValueTest {
  const caseSensitive = filter.caseSensitive === true;
  switch (op) {
    case "eq":
    case "ne":
      return equalityTest([filter.value], caseSensitive);
    case "in":
      return equalityTest(Array.isArray(filter.value) ? filter.value : [], caseSensitive);
    case "contains":
      return stringTest(
        filter.value,
        caseSensitive,
        (actual, expected) => actual.includes(expected),
      );
    case "startsWith":
      return stringTest(
        filter.value,
        caseSensitive,
        (actual, expected) => actual.startsWith(expected),
      );
    case "endsWith":
      return stringTest(
        filter.value,
        caseSensitive,
        (actual, expected) => actual.endsWith(expected),
      );
    case "regex": {
      const search = compileRegex(String(filter.value), caseSensitive);
      return (actual, budget) => {
        if (typeof actual !== "string") return false;
        budget.spendChars(actual.length, REGEX_CHARS_PER_STEP);
        return search(actual);
      };
    }
    case "gt":
      return orderTest(filter.value, (difference) => difference > 0);
    case "gte":
      return orderTest(filter.value, (difference) => difference >= 0);
    case "lt":
      return orderTest(filter.value, (difference) => difference < 0);
    case "lte":
      return orderTest(filter.value, (difference) => difference <= 0);
    case "exists":
      return (actual) => actual !== null;
  }
}

/** Compiles a field filter; throws a TypeError when its path or regex is invalid. */
export function compileFieldFilter(filter: FieldFilter): CompiledField {
  const op = filter.op ?? "eq";
  return {
    op,
    path: filter.path,
    resolve: compilePath(filter.path),
    testValue: compileValueTest(filter, op),
    negated: op === "ne" || (op === "exists" && filter.value === false),
  };
}

/** What a field filter saw: its values (arrays expanded) and the first that passed, or -1. */
export interface FieldOutcome {
  values: unknown[];
  witness: number;
}

function evaluationFailure(field: CompiledField, error: unknown): FilterEvaluationError {
  const reason = error instanceof FilterEvaluationError
    ? error.message
    : `could not be evaluated (${(error as Error).message})`;
  return new FilterEvaluationError(`path ${field.path}: ${reason}`);
}

/** How many values a path's result holds once arrays are expanded. */
function expandedCount(resolved: readonly unknown[]): number {
  let count = 0;
  for (const value of resolved) count += Array.isArray(value) ? value.length : 1;
  return count;
}

/**
 * Resolves the filter's path and finds the first value that passes. Resolution spends budget
 * steps, and so does every value (arrays expanded). Throws a FilterEvaluationError naming the
 * path when the evaluation fails (budget, or a payload that cannot be walked): a failure is
 * never "no values". `fieldMatches` spends exactly the same steps.
 */
export function evaluateField(
  field: CompiledField,
  payload: unknown,
  budget: EvaluationBudget,
): FieldOutcome {
  try {
    const resolved = field.resolve(payload, budget);
    budget.spend(expandedCount(resolved));
    const values = flattenValues(resolved);
    return { values, witness: values.findIndex((value) => field.testValue(value, budget)) };
  } catch (error) {
    throw evaluationFailure(field, error);
  }
}

/**
 * Spends again the steps a field filter already spent on this event (its result is
 * remembered), so a shared leaf costs each route what it would have cost on its own; throws
 * like `fieldMatches` when the budget runs out.
 */
export function spendAgain(field: CompiledField, budget: EvaluationBudget, steps: number): void {
  try {
    budget.spend(steps);
  } catch (error) {
    throw evaluationFailure(field, error);
  }
}

/** Whether a compiled field filter matches a payload; spends and throws like `evaluateField`. */
export function fieldMatches(
  field: CompiledField,
  payload: unknown,
  budget: EvaluationBudget,
): boolean {
  let found = false;
  try {
    const resolved = field.resolve(payload, budget);
    budget.spend(expandedCount(resolved));
    const test = (value: unknown) => field.testValue(value, budget);
    for (const value of resolved) {
      if (Array.isArray(value) ? value.some(test) : test(value)) {
        found = true;
        break;
      }
    }
  } catch (error) {
    throw evaluationFailure(field, error);
  }
  return found !== field.negated;
}
