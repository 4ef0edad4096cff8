/**
 * Splitting template source into text and tags, and a tag's inside into words. `\{{` writes a
 * literal `{{`; `{{! … }}` is a comment. A block tag (`{{#…}}`, `{{else}}`, `{{/…}}`) or a
 * comment alone on its line takes the whole line with it, so blocks can be written one per
 * line without leaving blank lines behind. Browser-safe.
 */
import type { Position } from "./ast.ts";
import { TemplateSyntaxError } from "./errors.ts";

/** One word of a tag: a parenthesis, a quoted string, or anything else up to a space. */
export interface Word {
  kind: "open" | "close" | "string" | "word";
  text: string;
  at: Position;
}

/** Literal text, or a tag with its words. */
export type Piece =
  | { kind: "text"; text: string }
  | { kind: "tag"; words: Word[]; at: Position };

const SPACE = /\s/;
const STRING_ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t" };

/** Turns offsets into line and column numbers. */
class Positions {
  #lineStarts: number[] = [0];
  constructor(source: string) {
    for (let i = 0; i < source.length; i++) {
      if (source[i] === "\n") this.#lineStarts.push(i + 1);
    }
  }

  at(offset: number): Position {
    const index = this.#lineIndex(offset);
    return { line: index + 1, column: offset - this.#lineStarts[index] + 1 };
  }

  /** Where the line holding `offset` starts. */
  lineStart(offset: number): number {
    return this.#lineStarts[this.#lineIndex(offset)];
  }

  /** Where the line holding `offset` ends (its newline, or the end of the source). */
  lineEnd(offset: number, sourceLength: number): number {
    const next = this.#lineStarts[this.#lineIndex(offset) + 1];
    return next === undefined ? sourceLength : next - 1;
  }

  #lineIndex(offset: number): number {
    let low = 0;
    let high = this.#lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (this.#lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** Whether `source` holds only spaces and tabs from `start` to `end`. */
function lineSpaceOnly(source: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    if (source[i] !== " " && source[i] !== "\t") return false;
  }
  return true;
}

/** A text without the spaces and tabs at its end (found from the end, so in linear time). */
function trimLineSpaceEnd(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return text.slice(0, end);
}

class Scanner {
  readonly #positions: Positions;
  readonly #pieces: Piece[] = [];
  #text = "";
  #pos = 0;

  constructor(readonly source: string) {
    this.#positions = new Positions(source);
  }

  scan(): Piece[] {
    const { source } = this;
    while (this.#pos < source.length) {
      const next = source.indexOf("{{", this.#pos);
      if (next === -1) {
        this.#text += source.slice(this.#pos);
        break;
      }
      if (next > 0 && source[next - 1] === "\\") {
        this.#text += source.slice(this.#pos, next - 1) + "{{";
        this.#pos = next + 2;
        continue;
      }
      this.#text += source.slice(this.#pos, next);
      this.#tag(next);
    }
    this.#flush();
    return this.#pieces;
  }

  #flush() {
    if (this.#text) this.#pieces.push({ kind: "text", text: this.#text });
    this.#text = "";
  }

  #error(reason: string, offset: number): never {
    throw new TemplateSyntaxError(reason, this.#positions.at(offset));
  }

  #tag(start: number) {
    const { source } = this;
    if (source.startsWith("{{!", start)) {
      const close = source.indexOf("}}", start + 3);
      if (close === -1) this.#error("unclosed comment (missing }})", start);
      this.#pos = close + 2;
      this.#standalone(start);
      return;
    }
    const words = this.#words(start);
    const first = words[0]?.text ?? "";
    const block = words[0]?.kind === "word" &&
      (first.startsWith("#") || first.startsWith("/") || (first === "else" && words.length === 1));
    if (block) this.#standalone(start);
    this.#flush();
    this.#pieces.push({ kind: "tag", words, at: this.#positions.at(start) });
  }

  /**
   * When the tag that started at `start` (and ended at the cursor) is alone on its line, drops
   * the spaces before it and the rest of the line after it.
   */
  #standalone(start: number) {
    const { source } = this;
    const lineStart = this.#positions.lineStart(start);
    const lineEnd = this.#positions.lineEnd(this.#pos, source.length);
    const afterEnd = source[lineEnd - 1] === "\r" && lineEnd > this.#pos ? lineEnd - 1 : lineEnd;
    if (!lineSpaceOnly(source, lineStart, start) || !lineSpaceOnly(source, this.#pos, afterEnd)) {
      return;
    }
    this.#text = trimLineSpaceEnd(this.#text);
    this.#pos = lineEnd === source.length ? source.length : lineEnd + 1;
  }

  /** Reads the words of the tag at `start` and moves the cursor past its `}}`. */
  #words(start: number): Word[] {
    const { source } = this;
    const words: Word[] = [];
    let i = start + 2;
    for (;;) {
      while (i < source.length && SPACE.test(source[i])) i++;
      if (i >= source.length) this.#error("unclosed tag (missing }})", start);
      if (source.startsWith("}}", i)) break;
      const at = this.#positions.at(i);
      const char = source[i];
      if (char === "(" || char === ")") {
        words.push({ kind: char === "(" ? "open" : "close", text: char, at });
        i++;
      } else if (char === '"' || char === "'") {
        const quoted = this.#quoted(i);
        words.push({ kind: "string", text: quoted.value, at });
        i = quoted.end;
      } else {
        const end = this.#wordEnd(i);
        words.push({ kind: "word", text: source.slice(i, end), at });
        i = end;
      }
    }
    this.#pos = i + 2;
    return words;
  }

  #quoted(start: number): { value: string; end: number } {
    const { source } = this;
    const quote = source[start];
    let value = "";
    for (let i = start + 1; i < source.length; i++) {
      const char = source[i];
      if (char === quote) return { value, end: i + 1 };
      if (char === "\\" && i + 1 < source.length) {
        i++;
        value += Object.hasOwn(STRING_ESCAPES, source[i]) ? STRING_ESCAPES[source[i]] : source[i];
      } else if (char === "\n") {
        break;
      } else {
        value += char;
      }
    }
    return this.#error("unclosed string", start);
  }

  /** Where a word (a path, a name, a number) ends: at a space, `(`, `)` or `}}` outside brackets. */
  #wordEnd(start: number): number {
    const { source } = this;
    let depth = 0;
    let i = start;
    while (i < source.length) {
      const char = source[i];
      if (source.startsWith("}}", i)) break;
      if (depth > 0 && (char === "'" || char === '"')) {
        const close = source.indexOf(char, i + 1);
        if (close === -1) break;
        i = close + 1;
        continue;
      }
      if (char === "[") depth++;
      else if (char === "]") depth = Math.max(depth - 1, 0);
      else if (depth === 0 && (SPACE.test(char) || char === "(" || char === ")")) break;
      i++;
    }
    return i;
  }
}

/** Splits a template into text and tags; throws a TemplateSyntaxError naming line and column. */
export function scanTemplate(source: string): Piece[] {
  return new Scanner(source).scan();
}
