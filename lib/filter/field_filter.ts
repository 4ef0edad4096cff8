/**
 * A compiled field filter (CONTRACT §4 operator semantics). The path, the regex and the
 * comparison value are prepared once; testing an event then only walks the payload.
 * Browser-safe.
 */
import type { FieldFilter, FieldOp } from "../types.ts";
import { compilePath, type PathResolver } from "./path.ts";
import { compileRegex } from "./regex.ts";
import {
  compareOrder,
  foldCase,
  toEqualityOperand,
  toOrderOperand,
  valueEquals,
} from "./values.ts";

/** A field filter ready to test payloads. */
export interface CompiledField {
  op: FieldOp;
  /** The path's values before arrays are expanded. */
  resolve: PathResolver;
  /** The operator's test of one value (for `ne`: equality; for `exists`: not null). */
  testValue: (value: unknown) => boolean;
  /** `ne` and `exists: false` match when no value passes `testValue`. */
  negated: boolean;
}

function stringTest(
  value: unknown,
  caseSensitive: boolean,
  test: (actual: string, expected: string) => boolean,
): (actual: unknown) => boolean {
  const expected = foldCase(String(value), caseSensitive);
  return (actual) => typeof actual === "string" && test(foldCase(actual, caseSensitive), expected);
}

function orderTest(value: unknown, accept: (difference: number) => boolean) {
  const operand = toOrderOperand(value);
  return (actual: unknown) => {
    const difference = compareOrder(actual, operand);
    return difference !== undefined && accept(difference);
  };
}

function equalityTest(values: readonly unknown[], caseSensitive: boolean) {
  const operands = values.map((value) => toEqualityOperand(value, caseSensitive));
  return (actual: unknown) =>
    operands.some((operand) => valueEquals(actual, operand, caseSensitive));
}

/** The operator's test of one payload value, with the comparison value prepared once. */
export function compileValueTest(filter: FieldFilter, op: FieldOp): (value: unknown) => boolean {
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
      return (actual) => typeof actual === "string" && search(actual);
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
    resolve: compilePath(filter.path),
    testValue: compileValueTest(filter, op),
    negated: op === "ne" || (op === "exists" && filter.value === false),
  };
}

/** Whether a compiled field filter matches a payload. */
export function fieldMatches(field: CompiledField, payload: unknown): boolean {
  for (const value of field.resolve(payload)) {
    if (Array.isArray(value)) {
      for (const element of value) {
        if (field.testValue(element)) return !field.negated;
      }
    } else if (field.testValue(value)) {
      return !field.negated;
    }
  }
  return field.negated;
}
