/**
 * Value rules of the field operators: equality across JSON types, numeric
 * strings, ISO-8601 timestamps and case folding. Comparison values are normalized once, when
 * a filter is compiled; payload values are read as they come. Browser-safe.
 */
import type { EvaluationBudget } from "../jsonpath/budget.ts";

/** A filter's comparison value, prepared for `eq`, `ne` and `in`. */
type EqualityOperand =
  | { kind: "null" }
  | { kind: "boolean"; value: boolean; text: string }
  | { kind: "number"; value: number }
  | { kind: "string"; text: string; number?: number };

/** A filter's comparison value, prepared for `gt`, `gte`, `lt` and `lte`. */
interface OrderOperand {
  number?: number;
  time?: number;
}

const NUMERIC_STRING = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

/** Lower-cases a string unless the comparison is case-sensitive. */
export function foldCase(text: string, caseSensitive: boolean): string {
  return caseSensitive ? text : text.toLowerCase();
}

/** The number a numeric string spells (`"42"`, `"-1.5"`, `"1e3"`), or undefined. */
export function parseNumericString(text: string): number | undefined {
  if (text.length > 64 || !NUMERIC_STRING.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Days in `month` (1-12) of `year` in the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

/**
 * Milliseconds since the epoch of an ISO-8601 date or date-time (`2024-05-01`,
 * `2024-05-01T10:00:00Z`, `2024-05-01T12:00:00+02:00`), or undefined. Without an offset the
 * time is read as UTC, so the server and a browser agree.
 */
export function parseIsoTimestamp(text: string): number | undefined {
  if (text.length > 40) return undefined;
  const parts = ISO_TIMESTAMP.exec(text);
  if (!parts) return undefined;
  const [, year, month, day, hour, minute, second, fraction, , sign, offsetHours, offsetMinutes] =
    parts;
  const fields = {
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
  };
  if (fields.month < 1 || fields.month > 12 || fields.day < 1) return undefined;
  // A day the month does not have (February 30, April 31, February 29 outside a leap year).
  if (fields.day > daysInMonth(Number(year), fields.month)) return undefined;
  if (fields.hour > 23 || fields.minute > 59 || fields.second > 60) return undefined;
  if (sign && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) return undefined;
  const millis = fraction ? Number(`0.${fraction}`) * 1000 : 0;
  const utc = Date.UTC(
    Number(year),
    fields.month - 1,
    fields.day,
    fields.hour,
    fields.minute,
    fields.second,
  ) + millis;
  const offset = sign
    ? (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000
    : 0;
  return utc - offset;
}

/** Prepares a scalar comparison value for equality. */
function toEqualityOperand(value: unknown, caseSensitive: boolean): EqualityOperand {
  if (value === null) return { kind: "null" };
  if (typeof value === "boolean") return { kind: "boolean", value, text: String(value) };
  if (typeof value === "number") return { kind: "number", value };
  const text = String(value);
  return { kind: "string", text: foldCase(text, caseSensitive), number: parseNumericString(text) };
}

/**
 * The comparison values of `eq`, `ne` or `in`, prepared once into sets. A payload value
 * equals a value as numbers (a numeric string counts as its number when the other side is a
 * number), as booleans, null only as null, otherwise as strings; objects and arrays equal
 * nothing. It is case-folded at most once and looked up, whatever the number of values, a
 * string longer than every comparison string is not read at all, and the characters read are
 * charged to the budget.
 */
export class EqualitySet {
  #null = false;
  /** Number values, and the numbers that string values spell. */
  readonly #numbers = new Set<number>();
  readonly #numericStrings = new Set<number>();
  /** Folded string values, and `true`/`false` for boolean values. */
  readonly #texts = new Set<string>();
  /** Folded string values only (a payload boolean equals these by its text). */
  readonly #stringTexts = new Set<string>();
  readonly #booleans = new Set<boolean>();
  #longestText = 0;

  constructor(values: readonly unknown[], readonly caseSensitive: boolean) {
    for (const value of values) {
      const operand = toEqualityOperand(value, caseSensitive);
      switch (operand.kind) {
        case "null":
          this.#null = true;
          break;
        case "boolean":
          this.#booleans.add(operand.value);
          this.#addText(operand.text);
          break;
        case "number":
          this.#numbers.add(operand.value);
          break;
        case "string":
          if (operand.number !== undefined) this.#numericStrings.add(operand.number);
          this.#stringTexts.add(operand.text);
          this.#addText(operand.text);
      }
    }
  }

  #addText(text: string) {
    this.#texts.add(text);
    this.#longestText = Math.max(this.#longestText, text.length);
  }

  /** Whether a payload value equals one of the values. */
  matches(actual: unknown, budget: EvaluationBudget): boolean {
    if (actual === null) return this.#null;
    switch (typeof actual) {
      case "number":
        return this.#numbers.has(actual) || this.#numericStrings.has(actual);
      case "boolean":
        return this.#booleans.has(actual) || this.#stringTexts.has(String(actual));
      case "string": {
        if (this.#numbers.size > 0) {
          const number = parseNumericString(actual);
          if (number !== undefined && this.#numbers.has(number)) return true;
        }
        // Folding never shortens a text, so a longer one equals no value.
        if (actual.length > this.#longestText) return false;
        budget.spendChars(actual.length);
        return this.#texts.has(foldCase(actual, this.caseSensitive));
      }
      default:
        return false;
    }
  }
}

/** Prepares a comparison value for ordering; empty when it is neither a number nor a time. */
export function toOrderOperand(value: unknown): OrderOperand {
  if (typeof value === "number") return { number: value };
  if (typeof value !== "string") return {};
  return { number: parseNumericString(value), time: parseIsoTimestamp(value) };
}

/**
 * Compares a payload value with an operand: numerically when both are numbers or numeric
 * strings, as times when both are ISO-8601 timestamps; undefined when they are not comparable.
 */
export function compareOrder(actual: unknown, operand: OrderOperand): number | undefined {
  if (typeof actual === "number") {
    return operand.number === undefined ? undefined : actual - operand.number;
  }
  if (typeof actual !== "string") return undefined;
  if (operand.number !== undefined) {
    const number = parseNumericString(actual);
    if (number !== undefined) return number - operand.number;
  }
  if (operand.time !== undefined) {
    const time = parseIsoTimestamp(actual);
    if (time !== undefined) return time - operand.time;
  }
  return undefined;
}

/** The values a path yields, with each array value replaced by its elements. */
export function flattenValues(values: readonly unknown[]): unknown[] {
  const flat: unknown[] = [];
  for (const value of values) {
    if (Array.isArray(value)) {
      for (const element of value) flat.push(element);
    } else {
      flat.push(value);
    }
  }
  return flat;
}
