/**
 * The JSONPaths a sample payload offers, for the field filter's autocomplete: every object key
 * and array (as `[*]`), in document order, written as field filters take them
 * (`pull_request.labels[*].name`). Browser-safe.
 */

/** Most paths listed for one payload. */
const MAX_SAMPLE_PATHS = 600;
/** Deepest level listed. */
const MAX_LEVELS = 8;
/** Array items looked at for their keys. */
const ITEMS_LOOKED_AT = 5;

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function child(path: string, key: string): string {
  if (PLAIN_NAME.test(key)) return path === "" ? key : `${path}.${key}`;
  return `${path === "" ? "$" : path}[${JSON.stringify(key)}]`;
}

/** The paths of `payload`, at most MAX_SAMPLE_PATHS, without duplicates. */
export function samplePaths(payload: unknown, limit = MAX_SAMPLE_PATHS): string[] {
  const seen = new Set<string>();
  const add = (path: string) => {
    if (seen.size < limit && path !== "") seen.add(path);
  };
  const visit = (value: unknown, path: string, level: number) => {
    if (seen.size >= limit || level > MAX_LEVELS || value === null || typeof value !== "object") {
      return;
    }
    if (Array.isArray(value)) {
      const items = `${path === "" ? "$" : path}[*]`;
      if (value.length > 0) add(items);
      for (const item of value.slice(0, ITEMS_LOOKED_AT)) visit(item, items, level + 1);
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      const at = child(path, key);
      add(at);
      visit(item, at, level + 1);
    }
  };
  visit(payload, "", 0);
  return [...seen];
}
