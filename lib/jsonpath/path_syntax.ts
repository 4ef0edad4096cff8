/**
 * The JSONPath grammar field filters accept, parsed into segments. A path is `$` followed by
 * segments: `.name`, `.*`, `[selectors]`, and the same after `..` (recursive descent). A
 * selector is a name (`'x.y'`, `"a"`, `a`), an index (`0`), `*`, a slice (`1:`, `-2:`,
 * `::2`) or a filter `?(…)` (see `path_expression.ts`); `[a,b]` is a union of selectors.
 * Anything else is refused, in every segment and every member of a union. Browser-safe.
 */
import {
  checkPropertyName,
  type Expression,
  ExpressionError,
  parseExpression,
  readQuoted,
} from "./path_expression.ts";

/** One selector of a segment. */
export type Selector =
  | { type: "name"; name: string }
  | { type: "wildcard" }
  | { type: "slice"; start?: number; end?: number; step?: number }
  | { type: "filter"; expression: Expression };

/** One step of a path: its selectors, applied to each value (or each descendant with `..`). */
export interface Segment {
  descendant: boolean;
  selectors: Selector[];
}

/** A refused path; the message says where and why. */
export class PathSyntaxError extends Error {}

const DOT_NAME = /^[\p{L}\p{N}_$-]+/u;
const BRACKET_NAME = /^[A-Za-z_$][\w$-]*/;
const SLICE = /^(-?\d+)?:(-?\d+)?(?::(-?\d+)?)?$/;
const INDEX = /^-?\d+$/;

function nameSelector(name: string): Selector {
  try {
    checkPropertyName(name);
  } catch (error) {
    throw new PathSyntaxError((error as Error).message);
  }
  return { type: "name", name };
}

/** Finds where a filter selector ends: at the `,` or `]` outside quotes and parentheses. */
function filterEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (char === "'" || char === '"') {
      i = readQuoted(text, i).end - 1;
    } else if (char === "(" || char === "[") {
      depth++;
    } else if (char === ")" || char === "]") {
      if (depth === 0) return i;
      depth--;
    } else if (char === "," && depth === 0) {
      return i;
    }
  }
  return text.length;
}

/** The expression's text as people write it: `@.a == 1` for both `?(@.a == 1)` and `?@.a == 1`. */
function displayedExpression(raw: string): string {
  const trimmed = raw.trim();
  if (!trimmed.startsWith("(") || !trimmed.endsWith(")")) return trimmed;
  let depth = 0;
  for (let i = 0; i < trimmed.length; i++) {
    if (trimmed[i] === "'" || trimmed[i] === '"') i = readQuoted(trimmed, i).end - 1;
    else if (trimmed[i] === "(") depth++;
    else if (trimmed[i] === ")" && --depth === 0 && i < trimmed.length - 1) return trimmed;
  }
  return trimmed.slice(1, -1).trim();
}

function sliceBound(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Number(text);
}

class PathParser {
  #pos = 1;
  constructor(readonly text: string) {}

  parse(): Segment[] {
    if (this.text[0] !== "$") throw new PathSyntaxError('a path starts with "$"');
    const segments: Segment[] = [];
    while (this.#pos < this.text.length) segments.push(this.#segment());
    return segments;
  }

  #segment(): Segment {
    if (this.text.startsWith("..", this.#pos)) {
      this.#pos += 2;
      if (this.text[this.#pos] === "[") return { descendant: true, selectors: this.#brackets() };
      return { descendant: true, selectors: [this.#dotSelector("..")] };
    }
    if (this.text[this.#pos] === ".") {
      this.#pos++;
      return { descendant: false, selectors: [this.#dotSelector(".")] };
    }
    if (this.text[this.#pos] === "[") return { descendant: false, selectors: this.#brackets() };
    throw new PathSyntaxError(`unexpected "${this.text[this.#pos]}"`);
  }

  #dotSelector(after: string): Selector {
    if (this.text[this.#pos] === "*") {
      this.#pos++;
      return { type: "wildcard" };
    }
    const name = DOT_NAME.exec(this.text.slice(this.#pos));
    if (!name) {
      const next = this.text[this.#pos];
      if (next === undefined) throw new PathSyntaxError(`ends with "${after}"`);
      throw new PathSyntaxError(`unexpected "${next}" after "${after}"`);
    }
    this.#pos += name[0].length;
    return nameSelector(name[0]);
  }

  #skipSpace() {
    while (/\s/.test(this.text[this.#pos] ?? "")) this.#pos++;
  }

  #brackets(): Selector[] {
    this.#pos++;
    const selectors: Selector[] = [];
    for (;;) {
      this.#skipSpace();
      if (this.#pos >= this.text.length) throw new PathSyntaxError('unclosed "["');
      if (this.text[this.#pos] === "]") {
        throw new PathSyntaxError(selectors.length === 0 ? "empty brackets" : 'unexpected "]"');
      }
      selectors.push(this.#selector());
      this.#skipSpace();
      const next = this.text[this.#pos];
      this.#pos++;
      if (next === "]") return selectors;
      if (next !== ",") {
        throw new PathSyntaxError(next === undefined ? 'unclosed "["' : `unexpected "${next}"`);
      }
    }
  }

  #selector(): Selector {
    const rest = this.text.slice(this.#pos);
    const char = rest[0];
    if (char === "*") {
      this.#pos++;
      return { type: "wildcard" };
    }
    if (char === "'" || char === '"') {
      let quoted;
      try {
        quoted = readQuoted(this.text, this.#pos);
      } catch {
        throw new PathSyntaxError("unclosed quote");
      }
      this.#pos = quoted.end;
      return nameSelector(quoted.value);
    }
    if (char === "?") return this.#filter();
    if (char === "(") throw new PathSyntaxError("script expressions (…) are not allowed");
    const token = /^[^,\]\s]*/.exec(rest)![0];
    if (SLICE.test(token)) {
      const [, start, end, step] = SLICE.exec(token)!;
      this.#pos += token.length;
      return {
        type: "slice",
        start: sliceBound(start),
        end: sliceBound(end),
        step: sliceBound(step),
      };
    }
    if (INDEX.test(token)) {
      if (token.startsWith("-")) {
        throw new PathSyntaxError(`negative index [${token}]: use the slice [${token}:]`);
      }
      this.#pos += token.length;
      return { type: "name", name: token };
    }
    const name = BRACKET_NAME.exec(rest);
    if (name && name[0] === token) {
      this.#pos += token.length;
      return nameSelector(token);
    }
    throw new PathSyntaxError(`unexpected "${token || char}" in brackets`);
  }

  #filter(): Selector {
    const start = this.#pos + 1;
    let end: number;
    try {
      end = filterEnd(this.text, start);
    } catch {
      throw new PathSyntaxError("unclosed quote");
    }
    const raw = this.text.slice(start, end);
    this.#pos = end;
    try {
      return { type: "filter", expression: parseExpression(raw) };
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      throw new PathSyntaxError(`expression "${displayedExpression(raw)}": ${error.message}`);
    }
  }
}

/** Parses a normalized path (starting with `$`); throws a PathSyntaxError when it is refused. */
export function parsePath(normalized: string): Segment[] {
  return new PathParser(normalized).parse();
}
