/**
 * Parsing a template into nodes (see `ast.ts`), with every check that can be made before an
 * event arrives: blocks are balanced and at most `MAX_NESTING` deep, helpers exist and get
 * the arguments they take, loop variables appear only inside loops, and every path is valid
 * JSONPath (checked by the same parser as field filters). Browser-safe.
 */
import { normalizePath, validatePath } from "../jsonpath/path.ts";
import { parsePath } from "../jsonpath/path_syntax.ts";
import type { Expression, Position, TemplateNode, VariableName } from "./ast.ts";
import { TemplateSyntaxError } from "./errors.ts";
import { type AnyHelper, HELPER_NAMES, helperNamed, MAX_COUNT } from "./helpers.ts";
import { type Piece, scanTemplate, type Word } from "./scan.ts";

/** Most blocks (`#if`, `#unless`, `#each`) open inside one another. */
export const MAX_NESTING = 8;

/** Most items one `{{#each}}` visits, and its default. */
export const MAX_EACH = 100;

const BLOCKS = ["if", "unless", "each"] as const;
type BlockName = typeof BLOCKS[number];

const LOOP_VARIABLES: ReadonlySet<string> = new Set(["index", "first", "last"]);
const EVENT_VARIABLES: ReadonlySet<string> = new Set(["event", "action", "provider"]);
const NUMBER = /^-?\d+(?:\.\d+)?$/;
const LITERALS: ReadonlyMap<string, boolean | null> = new Map([
  ["true", true],
  ["false", false],
  ["null", null],
]);

/** An open block while its content is read. */
interface Frame {
  name: BlockName;
  at: Position;
  node: Extract<TemplateNode, { type: "if" | "each" }>;
  inElse: boolean;
}

function fail(reason: string, at: Position): never {
  throw new TemplateSyntaxError(reason, at);
}

/** A path expression from a word: `this`, `this.a`, `$.a`, `a.b[0]`. */
function pathExpression(word: Word): Expression {
  const { text, at } = word;
  if (text === "this") return { type: "path", root: false, segments: [], singular: true };
  const relativeToItem = text.startsWith("this.") || text.startsWith("this[");
  const path = relativeToItem ? "$" + text.slice(4) : text;
  const reason = validatePath(path);
  if (reason) fail(`${reason} in "${text}"`, at);
  const segments = parsePath(normalizePath(path));
  const singular = segments.every((segment) =>
    !segment.descendant && segment.selectors.length === 1 && segment.selectors[0].type === "name"
  );
  return { type: "path", root: !relativeToItem && path.startsWith("$"), segments, singular };
}

class Parser {
  #words: Word[] = [];
  #next = 0;
  #loops = 0;

  constructor(readonly pieces: readonly Piece[]) {}

  parse(): TemplateNode[] {
    const root: TemplateNode[] = [];
    const stack: Frame[] = [];
    const target = () => {
      const top = stack[stack.length - 1];
      if (!top) return root;
      if (top.node.type === "if") return top.inElse ? top.node.otherwise : top.node.then;
      return top.inElse ? top.node.otherwise : top.node.body;
    };
    for (const piece of this.pieces) {
      if (piece.kind === "text") {
        target().push({ type: "text", text: piece.text });
        continue;
      }
      this.#words = piece.words;
      this.#next = 0;
      const first = piece.words[0];
      if (!first) fail("empty tag {{}}", piece.at);
      if (first.kind === "word" && first.text.startsWith("#")) {
        const frame = this.#open(first, piece.at);
        target().push(frame.node);
        stack.push(frame);
        if (stack.length > MAX_NESTING) fail(`blocks nested deeper than ${MAX_NESTING}`, piece.at);
      } else if (first.kind === "word" && first.text === "else" && piece.words.length === 1) {
        const top = stack[stack.length - 1];
        if (!top) fail("{{else}} outside a block", piece.at);
        if (top.inElse) fail(`a second {{else}} in {{#${top.name}}}`, piece.at);
        top.inElse = true;
      } else if (first.kind === "word" && first.text === "else") {
        fail("{{else}} takes nothing else (nest an {{#if}} inside it instead)", piece.words[1].at);
      } else if (first.kind === "word" && first.text.startsWith("/")) {
        const frame = stack.pop();
        this.#close(first, piece.at, frame);
        if (frame?.name === "each") this.#loops--;
      } else {
        target().push({ type: "output", expression: this.#output(), at: piece.at });
      }
    }
    const open = stack.pop();
    if (open) fail(`{{#${open.name}}} is not closed (missing {{/${open.name}}})`, open.at);
    return root;
  }

  #open(first: Word, at: Position): Frame {
    const name = first.text.slice(1);
    if (!(BLOCKS as readonly string[]).includes(name)) {
      fail(`unknown block "${first.text}" (use #if, #unless or #each)`, first.at);
    }
    this.#next = 1;
    if (this.#next >= this.#words.length) fail(`{{#${name}}} needs a value`, at);
    const value = this.#operand(0);
    if (name === "each") {
      const max = this.#next < this.#words.length ? this.#count(this.#words[this.#next++]) : null;
      this.#end();
      this.#loops++;
      const node = {
        type: "each" as const,
        list: value,
        max: Math.min(max ?? MAX_EACH, MAX_EACH),
        body: [],
        otherwise: [],
      };
      return { name, at, node, inElse: false };
    }
    this.#end();
    const node = {
      type: "if" as const,
      negate: name === "unless",
      condition: value,
      then: [],
      otherwise: [],
    };
    return { name: name as BlockName, at, node, inElse: false };
  }

  #close(word: Word, at: Position, frame: Frame | undefined) {
    const name = word.text.slice(1);
    if (this.#words.length > 1) fail(`{{/${name}}} takes nothing else`, this.#words[1].at);
    if (!frame) fail(`{{/${name}}} without an open block`, at);
    if (frame.name !== name) {
      fail(
        `{{/${name}}} closes {{#${frame.name}}} opened at line ${frame.at.line}, column ${frame.at.column}`,
        at,
      );
    }
  }

  /** An output tag: a helper call with its arguments, or one value. */
  #output(): Expression {
    const first = this.#words[0];
    const helper = first.kind === "word" ? helperNamed(first.text) : undefined;
    if (helper) {
      this.#next = 1;
      const call = this.#call(first, helper, 0);
      this.#end();
      return call;
    }
    const value = this.#operand(0);
    if (this.#next < this.#words.length) {
      if (first.kind === "word" && !first.text.startsWith("$") && !first.text.startsWith("@")) {
        fail(`unknown helper "${first.text}" (helpers: ${HELPER_NAMES.join(", ")})`, first.at);
      }
      this.#end();
    }
    return value;
  }

  /** Refuses anything left in the tag. */
  #end() {
    const extra = this.#words[this.#next];
    if (extra) fail(`unexpected "${extra.text}"`, extra.at);
  }

  #count(word: Word): number {
    const value = Number(word.text);
    if (word.kind !== "word" || !Number.isInteger(value) || value < 1 || value > MAX_COUNT) {
      fail(`expected a whole number from 1 to ${MAX_COUNT}, not "${word.text}"`, word.at);
    }
    return value;
  }

  /** A helper call (`depth` parentheses deep): its arguments, checked against what it takes. */
  #call(name: Word, helper: AnyHelper, depth: number): Expression {
    if (depth > 0 && helper.kind !== "value") {
      fail(
        `"${name.text}" formats the message and can only be used as {{${name.text} …}}`,
        name.at,
      );
    }
    const args: Expression[] = [];
    while (this.#next < this.#words.length && this.#words[this.#next].kind !== "close") {
      const word = this.#words[this.#next];
      const position = args.length;
      if (helper.counts?.includes(position)) {
        this.#next++;
        args.push({ type: "literal", value: this.#count(word) });
      } else if (helper.strings?.includes(position)) {
        if (word.kind !== "string") fail(`expected a quoted string, not "${word.text}"`, word.at);
        this.#next++;
        args.push({ type: "literal", value: word.text });
      } else {
        args.push(this.#operand(depth));
      }
    }
    const [min, max] = helper.arity;
    if (args.length < min || args.length > max) {
      const wanted = min === max ? `${min}` : `${min} or ${max}`;
      fail(`"${name.text}" takes ${wanted} argument${max === 1 ? "" : "s"}`, name.at);
    }
    return { type: "call", helper: name.text, args, at: name.at };
  }

  /** One value: a literal, a variable, a path, or a parenthesised helper call. */
  #operand(depth: number): Expression {
    const word = this.#words[this.#next++];
    if (!word) return fail("a value is missing", this.#words[this.#words.length - 1].at);
    switch (word.kind) {
      case "string":
        return { type: "literal", value: word.text };
      case "close":
        return fail('unexpected ")"', word.at);
      case "open":
        return this.#nested(word, depth);
    }
    if (NUMBER.test(word.text)) return { type: "literal", value: Number(word.text) };
    if (LITERALS.has(word.text)) return { type: "literal", value: LITERALS.get(word.text)! };
    if (word.text.startsWith("@")) return this.#variable(word);
    if (helperNamed(word.text)) {
      fail(`a helper inside a tag goes in parentheses: (${word.text} …)`, word.at);
    }
    return pathExpression(word);
  }

  #nested(open: Word, depth: number): Expression {
    if (depth >= MAX_NESTING) fail(`parentheses nested deeper than ${MAX_NESTING}`, open.at);
    const name = this.#words[this.#next++];
    const helper = name?.kind === "word" ? helperNamed(name.text) : undefined;
    if (!name || !helper) {
      fail("parentheses start with a helper name: (truncate title 40)", name?.at ?? open.at);
    }
    const call = this.#call(name, helper, depth + 1);
    const close = this.#words[this.#next++];
    if (close?.kind !== "close") fail('missing ")"', close?.at ?? open.at);
    return call;
  }

  #variable(word: Word): Expression {
    const name = word.text.slice(1);
    if (LOOP_VARIABLES.has(name)) {
      if (this.#loops === 0) fail(`${word.text} is only defined inside {{#each}}`, word.at);
    } else if (!EVENT_VARIABLES.has(name)) {
      fail(
        `unknown variable "${word.text}" (@index, @first, @last, @event, @action, @provider)`,
        word.at,
      );
    }
    return { type: "variable", name: name as VariableName };
  }
}

/** Parses a template; throws a TemplateSyntaxError naming the line and column of the problem. */
export function parseTemplate(source: string): TemplateNode[] {
  return new Parser(scanTemplate(source)).parse();
}
