/**
 * The helpers a template may call. Value helpers compute a value and may be nested in
 * parentheses (`{{code (truncate title 40)}}`); formatting helpers (`link`, `code`, `bold`,
 * `italic`) make a styled piece of the message and `quote` a quoted block, so those two kinds
 * are only written as a tag of their own. Every helper charges the budget for the characters
 * (and object keys) it touches, and reads no text past what its result can show. Browser-safe.
 */
import type { EvaluationBudget } from "../jsonpath/budget.ts";
import { bold, code, italic, link, type Span } from "../format/message.ts";
import { ELLIPSIS, firstLine, safeUrl } from "../format/text.ts";
import { cut, joinedText, textOf, truthy } from "./values.ts";

/** Longest count a helper accepts (`truncate x 80`, `{{#each list 5}}`). */
export const MAX_COUNT = 4096;

/** What a helper makes: a value, a styled inline piece, or a quoted block. */
type HelperKind = "value" | "inline" | "block";

/** What helpers may use while they work. */
interface HelperContext {
  budget: EvaluationBudget;
  /** The most characters a text result may have. */
  max: number;
}

/** A helper's signature and work. */
interface Helper<T> {
  kind: HelperKind;
  /** Fewest and most arguments. */
  arity: readonly [min: number, max: number];
  /** Argument positions that must be a whole number written in the template (1 … MAX_COUNT). */
  counts?: readonly number[];
  /** Argument positions that must be a quoted string written in the template. */
  strings?: readonly number[];
  run(args: readonly unknown[], context: HelperContext): T;
}

type ValueHelper = Helper<unknown> & { kind: "value" };
type InlineHelper = Helper<Span> & { kind: "inline" };
type BlockHelper = Helper<string> & { kind: "block" };

/** Any helper. */
export type AnyHelper = ValueHelper | InlineHelper | BlockHelper;

const asText = (value: unknown, context: HelperContext, max = context.max) =>
  textOf(value, Math.min(max, context.max), context.budget);

/** Text for a code span: one line. */
const oneLine = (value: string) => value.replaceAll(/\s*\n\s*/g, " ");

const isScalar = (value: unknown) => value === null || typeof value !== "object";

/** Characters `safeUrl` reads at most (it refuses a longer URL by its length). */
const URL_READ_MAX = 2049;

/**
 * A value cut to `count` characters as `truncate` in format/text.ts cuts it (the longest
 * prefix that, trimmed and ended with `…`, fits), reading at most `count + 2` characters.
 */
function truncateValue(value: unknown, count: number, context: HelperContext): string {
  const text = asText(value, context, count + 2);
  if (text.length <= count) return text;
  return cut(text, count - ELLIPSIS.length).trimEnd() + ELLIPSIS;
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** The number of code points of a text, charged by its length. */
function codePoints(value: string, context: HelperContext): number {
  context.budget.spendChars(value.length);
  const first = value.search(HIGH_SURROGATE);
  if (first === -1) return value.length;
  let pairs = 0;
  for (let i = first; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return value.length - pairs;
}

/** Whether two values are the same scalar; comparing two strings is charged by their length. */
function sameScalar(left: unknown, right: unknown, context: HelperContext): boolean {
  if (!isScalar(left) || !isScalar(right)) return false;
  if (typeof left === "string" && typeof right === "string" && left.length === right.length) {
    context.budget.spendChars(left.length);
  }
  return (left ?? null) === (right ?? null);
}

const HELPERS: ReadonlyMap<string, AnyHelper> = new Map<string, AnyHelper>([
  ["truncate", {
    kind: "value",
    arity: [2, 2],
    counts: [1],
    run: ([value, count], context) => truncateValue(value, count as number, context),
  }],
  ["default", {
    kind: "value",
    arity: [2, 2],
    run: ([value, fallback]) => truthy(value) ? value : fallback,
  }],
  ["join", {
    kind: "value",
    arity: [1, 2],
    strings: [1],
    run: ([value, separator], context) =>
      Array.isArray(value)
        ? joinedText(value, (separator as string | undefined) ?? ", ", context.max, context.budget)
        : asText(value, context),
  }],
  ["length", {
    kind: "value",
    arity: [1, 1],
    run: ([value], context) => {
      if (Array.isArray(value)) return value.length;
      if (typeof value === "string") return codePoints(value, context);
      if (value === null || typeof value !== "object") return 0;
      const keys = Object.keys(value).length;
      context.budget.spend(keys);
      return keys;
    },
  }],
  ["firstline", {
    kind: "value",
    arity: [1, 1],
    run: ([value], context) => firstLine(asText(value, context)),
  }],
  ["eq", {
    kind: "value",
    arity: [2, 2],
    run: ([left, right], context) => sameScalar(left, right, context),
  }],
  ["ne", {
    kind: "value",
    arity: [2, 2],
    run: ([left, right], context) => !sameScalar(left, right, context),
  }],
  ["link", {
    kind: "inline",
    arity: [1, 2],
    run: ([url, label], context) => {
      if (typeof url === "string") context.budget.spendChars(Math.min(url.length, URL_READ_MAX));
      const target = safeUrl(url);
      const shown = label === undefined ? asText(url, context) : asText(label, context);
      return link(oneLine(shown), target);
    },
  }],
  ["code", {
    kind: "inline",
    arity: [1, 1],
    run: ([value], context) => code(oneLine(asText(value, context))),
  }],
  ["bold", {
    kind: "inline",
    arity: [1, 1],
    run: ([value], context) => bold(asText(value, context)),
  }],
  ["italic", {
    kind: "inline",
    arity: [1, 1],
    run: ([value], context) => italic(asText(value, context)),
  }],
  ["quote", {
    kind: "block",
    arity: [1, 1],
    run: ([value], context) => asText(value, context),
  }],
]);

/** The helper of that name, if there is one. */
export function helperNamed(name: string): AnyHelper | undefined {
  return HELPERS.get(name);
}

/** Every helper's name (for messages and docs). */
export const HELPER_NAMES: readonly string[] = [...HELPERS.keys()];
