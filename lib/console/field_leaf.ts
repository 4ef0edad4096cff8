/**
 * The field filter's form logic: the operators in words, which operators compare text (and so
 * take the case-sensitivity toggle), and how a leaf's comparison value follows when its
 * operator changes (a value becomes a one-item list for `in`, a list its first item for the
 * others, `exists` takes none), and the filter a "+ Field" button adds. Browser-safe.
 */
import { OP_LABELS } from "../routing/explain_words.ts";
import { FIELD_OPS } from "../routing/validate.ts";
import type { FieldOp } from "../types.ts";
import type { LeafFilter } from "./filter_tree.ts";

export { FIELD_OPS, OP_LABELS };

/** A new field filter: `equals`, with the path and value still to be typed. */
export function newFieldLeaf(): LeafFilter {
  return { type: "field", path: "", value: "" };
}

/** The label of a field filter's comparison value, the same for every operator. */
export const VALUE_LABEL = "Value";

/** Operators that compare text, where case sensitivity applies. */
export const TEXT_OPS: ReadonlySet<FieldOp> = new Set([
  "eq",
  "ne",
  "contains",
  "startsWith",
  "endsWith",
  "regex",
  "in",
]);

/** The leaf's operator (`eq` when absent); null when it is not one of the twelve. */
export function opOf(filter: LeafFilter): FieldOp | null {
  const op = filter.op ?? "eq";
  return FIELD_OPS.includes(op as FieldOp) ? op as FieldOp : null;
}

function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] ?? "" : value;
}

/** The leaf with operator `op`, its value carried over in the form `op` takes. */
export function withOp(filter: LeafFilter, op: FieldOp): LeafFilter {
  const next: LeafFilter = { ...filter, op };
  if (op === "eq") delete next.op;
  if (op === "exists") {
    delete next.value;
    delete next.caseSensitive;
    return next;
  }
  const had = Object.hasOwn(filter, "value") ? filter.value : "";
  if (op === "in") {
    next.value = Array.isArray(had) ? had : had === "" || had === undefined ? [] : [had];
  } else {
    const value = firstOf(had);
    next.value = value === undefined || value === null && op !== "eq" && op !== "ne" ? "" : value;
  }
  if (!TEXT_OPS.has(op)) delete next.caseSensitive;
  return next;
}

/** How an `eq`/`ne` value is typed in the form. */
export type ScalarKind = "text" | "number" | "boolean" | "null";

/** The form's type of a comparison value. */
export function scalarKindOf(value: unknown): ScalarKind {
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (value === null) return "null";
  return "text";
}

/**
 * A comparison value from the form: `text` as typed in the form's type. A number that does
 * not parse stays text, so the validator reports it where it was typed.
 */
export function scalarFrom(kind: ScalarKind, text: string): unknown {
  switch (kind) {
    case "number": {
      const trimmed = text.trim();
      const number = Number(trimmed);
      return trimmed !== "" && Number.isFinite(number) ? number : text;
    }
    case "boolean":
      return text === "true";
    case "null":
      return null;
    default:
      return text;
  }
}

/** A `gt`/`gte`/`lt`/`lte` value from the form: a number when it is one, else the text. */
export function orderValueFrom(text: string): unknown {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : text;
}
