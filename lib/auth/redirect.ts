/**
 * Where a sign-in may send the browser afterwards: only a path on this site.
 * Anything else (absolute addresses, scheme-relative `//host`, the `/\host`
 * form browsers read as `//host`, control characters, or any of these hidden
 * behind percent-encoding) becomes `/`.
 */

const FALLBACK = "/";
const PROBE_ORIGIN = "http://switchyard.invalid";
const MAX_LENGTH = 2048;

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
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f\\\s]/.test(value)) return FALLBACK;
  const decoded = decodeAll(value);
  if (decoded === null || !looksLocal(decoded) || decoded.includes("\\")) return FALLBACK;
  const resolved = new URL(value, PROBE_ORIGIN);
  if (resolved.origin !== PROBE_ORIGIN) return FALLBACK;
  return value;
}
