/**
 * The helpers a template may call. Value helpers compute a value and may be nested in
 * parentheses (`{{code (truncate title 40)}}`); formatting helpers (`link`, `code`, `bold`,
 * `italic`) make a styled piece of the message and `quote` a quoted block, so those two kinds
 * are only written as a tag of their own. Browser-safe.
 */
import type { EvaluationBudget } from "../filter/budget.ts";
import { bold, code, italic, link, type Span } from "../format/message.ts";
import { firstLine, safeUrl, truncate } from "../format/text.ts";
import { joinedText, textOf, truthy } from "./values.ts";

/** Longest count a helper accepts (`truncate x 80`, `{{#each list 5}}`). */
export const MAX_COUNT = 4096;

/** What a helper makes: a value, a styled inline piece, or a quoted block. */
export type HelperKind = "value" | "inline" | "block";

/** What helpers may use while they work. */
export interface HelperContext {
  budget: EvaluationBudget;
  /** The most characters a text result may have. */
  max: number;
}

/** A helper's signature and work. */
export interface Helper<T> {
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

const asText = (value: unknown, context: HelperContext) =>
  textOf(value, context.max, context.budget);

/** Text for a code span: one line. */
const oneLine = (value: string) => value.replaceAll(/\s*\n\s*/g, " ");

const isScalar = (value: unknown) => value === null || typeof value !== "object";

const HELPERS: ReadonlyMap<string, AnyHelper> = new Map<string, AnyHelper>([
  ["truncate", {
    kind: "value",
    arity: [2, 2],
    counts: [1],
    run: ([value, count], context) => truncate(asText(value, context), count as number),
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
    run: ([value]) => {
      if (Array.isArray(value)) return value.length;
      if (typeof value === "string") return Array.from(value).length;
      if (value !== null && typeof value === "object") return Object.keys(value).length;
      return 0;
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
    run: ([left, right]) => isScalar(left) && isScalar(right) && (left ?? null) === (right ?? null),
  }],
  ["ne", {
    kind: "value",
    arity: [2, 2],
    run: ([left, right]) =>
      !(isScalar(left) && isScalar(right) && (left ?? null) === (right ?? null)),
  }],
  ["link", {
    kind: "inline",
    arity: [1, 2],
    run: ([url, label], context) => {
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
