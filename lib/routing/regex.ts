/**
 * User regexes: RE2 syntax, linear time in the input, so no pattern can stall the process.
 * Every pattern is checked by re2js; one that a conservative check proves linear-time and
 * equal in meaning on the JavaScript engine runs on the native RegExp (faster), every other
 * on re2js (`linear_regex.ts`). Browser-safe.
 */
import { RE2JS } from "re2js";
import { REGEX_MAX_LENGTH } from "../limits.ts";
import { nativeRegexSource } from "./linear_regex.ts";

/** An unanchored search: true when the pattern occurs anywhere in the text. */
type RegexSearch = (text: string) => boolean;

function compileOrReason(pattern: string, caseSensitive: boolean): RE2JS | string {
  if (pattern.length > REGEX_MAX_LENGTH) {
    return `invalid regex: longer than ${REGEX_MAX_LENGTH} characters`;
  }
  try {
    return RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    const message = (error as Error).message.replace(/^error parsing regexp: /, "");
    return `invalid regex: ${message}`;
  }
}

/** Which engine runs a pattern. */
type RegexEngine = "native" | "re2js";

function nativeRegex(pattern: string, caseSensitive: boolean): RegExp | null {
  const source = nativeRegexSource(pattern, caseSensitive);
  if (source === null) return null;
  try {
    return new RegExp(source, caseSensitive ? "u" : "iu");
  } catch {
    return null;
  }
}

/** The engine a valid pattern runs on. */
export function regexEngine(pattern: string, caseSensitive: boolean): RegexEngine {
  return nativeRegex(pattern, caseSensitive) ? "native" : "re2js";
}

/** Compiles a pattern into a search; throws a TypeError (`invalid regex: …`) when it is invalid. */
export function compileRegex(pattern: string, caseSensitive: boolean): RegexSearch {
  const compiled = compileOrReason(pattern, caseSensitive);
  if (typeof compiled === "string") throw new TypeError(compiled);
  const native = nativeRegex(pattern, caseSensitive);
  if (native) return (text) => native.test(text);
  return (text) => compiled.test(text);
}

/** Checks a pattern; returns null when it compiles, else a one-line reason (`invalid regex: …`). */
export function validateRegex(pattern: string): string | null {
  const compiled = compileOrReason(pattern, true);
  return typeof compiled === "string" ? compiled : null;
}
