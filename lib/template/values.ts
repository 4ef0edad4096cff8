/**
 * How a template reads and shows payload values: truthiness, and text for any JSON value
 * within a character cap (objects as compact JSON, cut at a fixed depth, so no payload shape
 * can overflow the stack or fill the message). No text is read past the cap, and what is
 * read is charged to the budget by its length (`spendChars`), so a huge string costs no
 * more than the text it gives. Browser-safe.
 */
import type { EvaluationBudget } from "../jsonpath/budget.ts";
import { clusterStart } from "../format/grapheme.ts";

/** Nesting shown when an object or list is written out as JSON; deeper values become `…`. */
const JSON_DEPTH = 4;

/**
 * The first `max` UTF-16 units of a text, or fewer: never ending inside a grapheme cluster (a
 * surrogate pair, a family emoji, a flag, a letter and its accent).
 */
export function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  return value.slice(0, clusterStart(value, Math.max(max, 0)));
}

/** False for a missing value, null, false, 0, NaN, "" and an empty list; true otherwise. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null || value === undefined) return "";
  return undefined;
}

/**
 * A string as JSON, read no further than `room` characters: the first `room` characters of
 * the result are those of the whole string's JSON (escapes only lengthen), and a cut one is
 * longer than `room`.
 */
function jsonString(value: string, room: number, budget: EvaluationBudget): string {
  const read = value.slice(0, room + 1);
  budget.spendChars(read.length);
  return JSON.stringify(read);
}

/** Compact JSON of a value, at most `max` characters (longer output ends with `…`). */
function jsonText(value: unknown, max: number, budget: EvaluationBudget): string {
  let out = "";
  const write = (part: string) => {
    out += part;
    if (out.length > max) throw new RangeError("full");
  };
  const room = () => max - out.length;
  const walk = (item: unknown, depth: number) => {
    budget.spend();
    if (typeof item === "string") {
      write(jsonString(item, room(), budget));
      return;
    }
    if (item === null || typeof item !== "object") {
      write(JSON.stringify(item ?? null));
      return;
    }
    if (depth >= JSON_DEPTH) {
      write(Array.isArray(item) ? "[…]" : "{…}");
      return;
    }
    if (Array.isArray(item)) {
      write("[");
      item.forEach((element, index) => {
        if (index > 0) write(",");
        walk(element, depth + 1);
      });
      write("]");
      return;
    }
    write("{");
    const keys = Object.keys(item);
    budget.spend(keys.length);
    keys.forEach((key, index) => {
      if (index > 0) write(",");
      write(`${jsonString(key, room(), budget)}:`);
      walk((item as Record<string, unknown>)[key], depth + 1);
    });
    write("}");
  };
  try {
    walk(value, 0);
    return out;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return cut(out, Math.max(max - 1, 0)) + "…";
  }
}

/**
 * A value as text of at most `max` characters: strings as they are, numbers and booleans
 * written out, nothing for null or a missing value, a list as its items joined with `, `, an
 * object as compact JSON.
 */
export function textOf(value: unknown, max: number, budget: EvaluationBudget): string {
  const scalar = scalarText(value);
  if (scalar !== undefined) return readText(scalar, max, budget);
  if (Array.isArray(value)) return joinedText(value, ", ", max, budget);
  return jsonText(value, max, budget);
}

/** The first `max` characters of a text (see `cut`), charged by the characters read. */
function readText(value: string, max: number, budget: EvaluationBudget): string {
  const text = cut(value, max);
  budget.spendChars(text.length);
  return text;
}

/** The items of a list as text, joined with `separator`, at most `max` characters. */
export function joinedText(
  items: readonly unknown[],
  separator: string,
  max: number,
  budget: EvaluationBudget,
): string {
  let out = "";
  for (let i = 0; i < items.length && out.length < max; i++) {
    budget.spend();
    const room = max - out.length;
    const gap = i > 0 ? readText(separator, room + 1, budget) : "";
    const scalar = scalarText(items[i]);
    out += gap +
      (scalar === undefined
        ? jsonText(items[i], room, budget)
        : readText(scalar, room + 1, budget));
  }
  return cut(out, max);
}
