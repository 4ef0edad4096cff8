/**
 * Defensive readers for untrusted JSON payloads: each answers undefined (or an
 * empty list) instead of throwing when a value is missing or has another type.
 */

/** A JSON object. */
export type Json = Record<string, unknown>;

/** The value when it is a plain object. */
export function record(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Json
    : undefined;
}

/** The value at a path of object keys. */
export function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    const object = record(current);
    if (!object) return undefined;
    current = object[key];
  }
  return current;
}

/** The value when it is a non-empty string (a finite number is written as one). */
export function string(value: unknown): string | undefined {
  if (typeof value === "string") return value.length > 0 ? value : undefined;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The value when it is a finite number (a numeric string counts). */
export function number(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return undefined;
}

/** The value when it is an array, else an empty one. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The non-empty strings found at `key` of each object in a list. */
export function names(value: unknown, key = "name"): string[] {
  return list(value).map((item) => string(at(item, key))).filter((item) => item !== undefined);
}
