/**
 * Where a sign-in may send the browser afterwards: only a path on this site.
 * Anything else (absolute addresses, scheme-relative `//host`, the `/\host`
 * form browsers read as `//host`, control characters, or any of these hidden
 * behind percent-encoding) becomes `/`.
 */

const FALLBACK = "/";
const PROBE_ORIGIN = "http://switchyard.invalid";
const MAX_LENGTH = 2048;
/** Control characters and backslashes: never in a path this site links to, encoded or not. */
// deno-lint-ignore no-control-regex
const UNSAFE_DECODED = /[\u0000-\u001f\u007f\\]/;
/** The same, and white space, which a link's path carries only percent-encoded. */
// deno-lint-ignore no-control-regex
const UNSAFE_RAW = /[\u0000-\u001f\u007f\\\s]/;

function looksLocal(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
}

/** Percent-decodes repeatedly (a few rounds), so double-encoded tricks are seen; null if invalid. */
function decodeAll(value: string): string | null {
  let current = value;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** `value` when it is a safe local path (see the module comment), else `/`. */
export function safeRedirectPath(value: string | null | undefined): string {
  if (!value || value.length > MAX_LENGTH || !looksLocal(value)) return FALLBACK;
  if (UNSAFE_RAW.test(value)) return FALLBACK;
  const decoded = decodeAll(value);
  if (decoded === null || !looksLocal(decoded) || UNSAFE_DECODED.test(decoded)) return FALLBACK;
  const resolved = new URL(value, PROBE_ORIGIN);
  if (resolved.origin !== PROBE_ORIGIN) return FALLBACK;
  return value;
}
