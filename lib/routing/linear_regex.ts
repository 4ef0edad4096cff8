/**
 * Which user regexes may run on the JavaScript engine's own RegExp: those a conservative
 * check proves both linear-time on a backtracking engine and equal in meaning to their RE2
 * reading. Everything else runs on re2js. Browser-safe.
 *
 * Accepted: literal characters (ASCII only when case-insensitive), escaped punctuation, `\d`
 * `\s` `\w` and their negations, `\b` `\B` (case-sensitive only), `\n` `\t` `\r` `\f` `\v`,
 * `.`, classes of characters and ranges, `^`, `$`, groups `( )` and `(?: )`, `|`, and the
 * quantifiers `?` (at most {@link MAX_OPTIONALS}), `*` and `+`. `*` and `+` apply to a single
 * character matcher only, and at most once in a pattern that starts with `^` and has no
 * alternative at its top level: one start position, one loop, so the work is linear in the
 * text. Each construct is written out explicitly (`\d` as `[0-9]`, `.` as `[^\n]`, `\s` as
 * RE2's `[\t\n\f\r ]`), so the JavaScript pattern means what RE2 means.
 */

/** The most `?` quantifiers a pattern may hold to run natively (each may double the work). */
export const MAX_OPTIONALS = 8;

const PUNCTUATION = new Set([..."\\.^$|?*+()[]{}/-"]);
const SYNTAX_OUTSIDE_CLASS = new Set([..."\\.^$|?*+()[]{}/"]);
const CLASS_ESCAPES: Record<string, string> = { d: "0-9", s: "\\t\\n\\f\\r ", w: "0-9A-Za-z_" };
const NEGATED_CLASS_ESCAPES: Record<string, string> = { D: "d", S: "s", W: "w" };
const CONTROL_ESCAPES = new Set([..."ntrfv"]);

class Unsupported extends Error {}

interface ParseState {
  pattern: string;
  at: number;
  caseSensitive: boolean;
  optionals: number;
  unbounded: number;
}

function literal(state: ParseState, char: string): string {
  if (!state.caseSensitive && char.charCodeAt(0) > 0x7f) throw new Unsupported();
  return SYNTAX_OUTSIDE_CLASS.has(char) ? `\\${char}` : char;
}

function classMember(state: ParseState, char: string): string {
  if (!state.caseSensitive && char.charCodeAt(0) > 0x7f) throw new Unsupported();
  return PUNCTUATION.has(char) ? `\\${char}` : char;
}

/** One character of a class (a literal or an escaped punctuation), or null for a class escape. */
function classCharacter(state: ParseState): { char: string } | { set: string } {
  const char = state.pattern[state.at++];
  if (char === undefined || char === "[") throw new Unsupported();
  if (char !== "\\") return { char };
  const next = state.pattern[state.at++];
  if (next === undefined) throw new Unsupported();
  if (PUNCTUATION.has(next)) return { char: next };
  if (CONTROL_ESCAPES.has(next)) return { set: `\\${next}` };
  if (next in CLASS_ESCAPES) {
    if (next === "w" && !state.caseSensitive) throw new Unsupported();
    return { set: CLASS_ESCAPES[next] };
  }
  throw new Unsupported();
}

function parseClass(state: ParseState): string {
  state.at++; // [
  let out = "[";
  if (state.pattern[state.at] === "^") {
    out += "^";
    state.at++;
  }
  let members = 0;
  while (state.pattern[state.at] !== "]") {
    if (state.at >= state.pattern.length) throw new Unsupported();
    const first = classCharacter(state);
    members++;
    if ("set" in first) {
      out += first.set;
      continue;
    }
    const isRange = state.pattern[state.at] === "-" && state.pattern[state.at + 1] !== "]" &&
      state.at + 1 < state.pattern.length;
    if (!isRange) {
      out += classMember(state, first.char);
      continue;
    }
    state.at++; // -
    const last = classCharacter(state);
    if ("set" in last || last.char < first.char) throw new Unsupported();
    out += `${classMember(state, first.char)}-${classMember(state, last.char)}`;
  }
  state.at++; // ]
  if (members === 0) throw new Unsupported();
  return out + "]";
}

/** An atom: its source and whether it matches exactly one character. */
function parseAtom(state: ParseState): { source: string; single: boolean } {
  const char = state.pattern[state.at];
  switch (char) {
    case "(": {
      state.at++;
      if (state.pattern[state.at] === "?") {
        if (state.pattern[state.at + 1] !== ":") throw new Unsupported();
        state.at += 2;
      }
      const inner = parseAlternation(state);
      if (state.pattern[state.at] !== ")") throw new Unsupported();
      state.at++;
      return { source: `(?:${inner})`, single: false };
    }
    case "[":
      return { source: parseClass(state), single: true };
    case ".":
      state.at++;
      return { source: "[^\\n]", single: true };
    case "^":
    case "$":
      state.at++;
      return { source: char, single: false };
    case "\\": {
      const next = state.pattern[state.at + 1];
      state.at += 2;
      if (next === undefined) throw new Unsupported();
      if (PUNCTUATION.has(next)) return { source: literal(state, next), single: true };
      if (CONTROL_ESCAPES.has(next)) return { source: `\\${next}`, single: true };
      if (next in CLASS_ESCAPES) {
        if (next === "w" && !state.caseSensitive) throw new Unsupported();
        return { source: `[${CLASS_ESCAPES[next]}]`, single: true };
      }
      if (next in NEGATED_CLASS_ESCAPES) {
        if (next === "W" && !state.caseSensitive) throw new Unsupported();
        return { source: `[^${CLASS_ESCAPES[NEGATED_CLASS_ESCAPES[next]]}]`, single: true };
      }
      if ((next === "b" || next === "B") && state.caseSensitive) {
        return { source: `\\${next}`, single: false };
      }
      throw new Unsupported();
    }
    case "*":
    case "+":
    case "?":
    case "{":
    case "}":
    case "]":
    case ")":
    case "|":
    case undefined:
      throw new Unsupported();
    default:
      state.at++;
      return { source: literal(state, char), single: true };
  }
}

function parseSequence(state: ParseState): string {
  let out = "";
  while (state.at < state.pattern.length) {
    const char = state.pattern[state.at];
    if (char === "|" || char === ")") break;
    const atom = parseAtom(state);
    const quantifier = state.pattern[state.at];
    if (quantifier === "?" || quantifier === "*" || quantifier === "+") {
      state.at++;
      const next = state.pattern[state.at];
      if (next === "?" || next === "*" || next === "+" || next === "{") throw new Unsupported();
      if (
        atom.source === "^" || atom.source === "$" || atom.source.startsWith("\\b") ||
        atom.source.startsWith("\\B")
      ) throw new Unsupported();
      if (quantifier === "?") state.optionals++;
      else if (!atom.single) throw new Unsupported();
      else state.unbounded++;
      out += atom.source + quantifier;
    } else {
      out += atom.source;
    }
  }
  return out;
}

function parseAlternation(state: ParseState): string {
  const branches = [parseSequence(state)];
  while (state.pattern[state.at] === "|") {
    state.at++;
    branches.push(parseSequence(state));
  }
  return branches.join("|");
}

/**
 * The JavaScript source (for flags `u`, plus `i` when case-insensitive) of a pattern proven
 * linear-time and equal in meaning to RE2's reading, or null when the pattern must run on
 * re2js.
 */
export function nativeRegexSource(pattern: string, caseSensitive: boolean): string | null {
  const state: ParseState = { pattern, at: 0, caseSensitive, optionals: 0, unbounded: 0 };
  try {
    const branches = [parseSequence(state)];
    while (state.pattern[state.at] === "|") {
      state.at++;
      branches.push(parseSequence(state));
    }
    if (state.at !== pattern.length) return null;
    if (state.optionals > MAX_OPTIONALS) return null;
    const anchored = branches.length === 1 && branches[0].startsWith("^");
    if (state.unbounded > (anchored ? 1 : 0)) return null;
    return branches.join("|");
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}
