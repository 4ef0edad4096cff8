/**
 * Lookups in fixed tables by keys that come from outside (headers, payloads, requests): only a
 * table's own entries count, so a key such as `constructor` or `__proto__` never reaches a
 * member every object inherits.
 */

/** The table's own value for `key`, or undefined. */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
