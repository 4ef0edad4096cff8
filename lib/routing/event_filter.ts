/**
 * The event filter: `push`, `pull_request` (any action), `pull_request.opened`
 * (kind and action), `pull_request.*`, `*`, `custom`, or a list meaning any of them. `*`
 * matches any run of characters within a part. Names compare without regard to case.
 * Browser-safe.
 */

/** Tests an event's kind and action. */
export type EventMatcher = (kind: string, action: string | undefined) => boolean;

const EVENT_PATTERN = /^[a-z0-9_*-]+(?:\.[a-z0-9_*-]+)?$/i;

/** Checks one event pattern; returns null when it is valid, else a one-line reason. */
export function validateEventPattern(pattern: string): string | null {
  if (typeof pattern !== "string" || pattern === "") return "event name must not be empty";
  if (!EVENT_PATTERN.test(pattern)) {
    return `invalid event "${pattern}": expected kind or kind.action (letters, digits, _ - *)`;
  }
  return null;
}

function globMatcher(glob: string): (text: string) => boolean {
  if (glob === "*") return () => true;
  if (!glob.includes("*")) return (text) => text === glob;
  const parts = glob.split("*");
  const head = parts[0];
  const tail = parts[parts.length - 1];
  const middle = parts.slice(1, -1).filter((part) => part !== "");
  return (text) => {
    if (text.length < head.length + tail.length) return false;
    if (!text.startsWith(head) || !text.endsWith(tail)) return false;
    let position = head.length;
    const end = text.length - tail.length;
    for (const part of middle) {
      const found = text.indexOf(part, position);
      if (found < 0 || found + part.length > end) return false;
      position = found + part.length;
    }
    return true;
  };
}

function compilePattern(pattern: string): EventMatcher {
  const [kindPattern, actionPattern] = pattern.toLowerCase().split(".");
  const kindMatches = globMatcher(kindPattern);
  if (actionPattern === undefined || actionPattern === "*") {
    return (kind) => kindMatches(kind.toLowerCase());
  }
  const actionMatches = globMatcher(actionPattern);
  return (kind, action) =>
    action !== undefined && kindMatches(kind.toLowerCase()) &&
    actionMatches(action.toLowerCase());
}

/** Compiles an event filter's value; throws a TypeError when a pattern is invalid. */
export function compileEventFilter(value: string | readonly string[]): EventMatcher {
  const patterns = typeof value === "string" ? [value] : value;
  for (const pattern of patterns) {
    const problem = validateEventPattern(pattern);
    if (problem) throw new TypeError(problem);
  }
  const matchers = patterns.map(compilePattern);
  return (kind, action) => matchers.some((matches) => matches(kind, action));
}
