/**
 * The payload filter of an event search, from its query fields: a route field filter (the same
 * JSONPath, operators and budget), so a search finds what a route with that filter would match.
 */
import type { FieldFilter, FieldOp } from "../types.ts";

/**
 * The field filter of `path`, `op` and `value` as a query gives them: without `op`, `eq` when
 * there is a value and `exists` when there is none; `exists` reads `value` as a boolean
 * (`false` only for the text `false`).
 */
export function searchPayloadFilter(path: string, op?: FieldOp, value?: string): FieldFilter {
  const chosen = op ?? (value === undefined ? "exists" : "eq");
  if (chosen === "exists") {
    return { type: "field", path, op: chosen, value: value?.trim().toLowerCase() !== "false" };
  }
  return { type: "field", path, op: chosen, ...(value === undefined ? {} : { value }) };
}
