/** Structural equality of JSON values (object key order does not matter). */

/** Whether two JSON values are equal: same scalars, same array items in order, same keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => sameJson(item, other[index]));
  }
  const left = Object.entries(a as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const right = b as Record<string, unknown>;
  const rightCount = Object.values(right).filter((v) => v !== undefined).length;
  return left.length === rightCount &&
    left.every(([key, value]) => Object.hasOwn(right, key) && sameJson(value, right[key]));
}
