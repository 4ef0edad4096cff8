/**
 * Filter expressions of JSONPath (`[?(@.name == 'bug' && !@.draft)]`): a small grammar parsed
 * and evaluated here, never handed to a JavaScript evaluator. Allowed: `@` and its properties
 * (`@.a`, `@['a b']`, `@[0]`), string, number, `true`, `false` and `null` literals, the
 * comparisons `==`, `!=`, `===`, `!==`, `<`, `<=`, `>`, `>=`, and `&&`, `||`, `!` and
 * parentheses. Nothing else: no calls, no regex, no arithmetic, no other names. Browser-safe.
 */

/** A parsed filter expression. */
export type Expression =
  | { type: "literal"; value: string | number | boolean | null }
  | { type: "current"; keys: string[] }
  | { type: "not"; operand: Expression }
  | { type: "logical"; operator: "&&" | "||"; left: Expression; right: Expression }
  | { type: "compare"; operator: CompareOperator; left: Expression; right: Expression };

type CompareOperator = "==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=";

/** Property names a path may not use, in any position. */
const FORBIDDEN_NAMES: ReadonlySet<string> = new Set([
  "__proto__",
  "constructor",
  "prototype",
]);

/** A refused expression; the message says why (`function calls are not allowed`). */
export class ExpressionError extends Error {}

const EQUALITY = ["===", "!==", "==", "!="] as const;
const RELATIONAL = ["<=", ">=", "<", ">"] as const;
const NAME_START = /[A-Za-z_$]/;
const NAME_PART = /[A-Za-z0-9_$]/;
const NUMBER = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v" };

/** Reads a quoted string at `start` (its quote character); returns its value and end. */
export function readQuoted(text: string, start: number): { value: string; end: number } {
  const quote = text[start];
  let value = "";
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i];
    if (char === quote) return { value, end: i + 1 };
    if (char === "\\" && i + 1 < text.length) {
      i++;
      value += Object.hasOwn(ESCAPES, text[i]) ? ESCAPES[text[i]] : text[i];
    } else {
      value += char;
    }
  }
  throw new ExpressionError("unclosed quote");
}

/** Refuses a property name that reaches into JavaScript internals. */
export function checkPropertyName(name: string): void {
  if (FORBIDDEN_NAMES.has(name)) throw new ExpressionError(`property "${name}" is not allowed`);
}

class ExpressionParser {
  #pos = 0;
  constructor(readonly text: string) {}

  parse(): Expression {
    const expression = this.#or();
    this.#skipSpace();
    if (this.#pos < this.text.length) this.#unexpected();
    return expression;
  }

  #skipSpace() {
    while (/\s/.test(this.text[this.#pos] ?? "")) this.#pos++;
  }

  #eat(token: string): boolean {
    this.#skipSpace();
    if (!this.text.startsWith(token, this.#pos)) return false;
    this.#pos += token.length;
    return true;
  }

  #unexpected(): never {
    this.#skipSpace();
    const char = this.text[this.#pos];
    if (char === undefined) throw new ExpressionError("incomplete expression");
    if (char === "(") throw new ExpressionError("function calls are not allowed");
    if ("+-*/%&|^~?:=,;".includes(char)) {
      const operator = /^[+\-*/%&|^~?:=,;]+/.exec(this.text.slice(this.#pos))![0];
      throw new ExpressionError(`operator "${operator}" is not allowed`);
    }
    throw new ExpressionError(`unexpected "${char}"`);
  }

  #or(): Expression {
    let left = this.#and();
    while (this.#eat("||")) left = { type: "logical", operator: "||", left, right: this.#and() };
    return left;
  }

  #and(): Expression {
    let left = this.#equality();
    while (this.#eat("&&")) {
      left = { type: "logical", operator: "&&", left, right: this.#equality() };
    }
    return left;
  }

  #equality(): Expression {
    let left = this.#relational();
    for (;;) {
      const operator = EQUALITY.find((candidate) => this.#eat(candidate));
      if (!operator) return left;
      left = { type: "compare", operator, left, right: this.#relational() };
    }
  }

  #relational(): Expression {
    let left = this.#unary();
    for (;;) {
      const operator = RELATIONAL.find((candidate) => this.#eat(candidate));
      if (!operator) return left;
      left = { type: "compare", operator, left, right: this.#unary() };
    }
  }

  #unary(): Expression {
    this.#skipSpace();
    if (this.text[this.#pos] === "!" && this.text[this.#pos + 1] !== "=") {
      this.#pos++;
      return { type: "not", operand: this.#unary() };
    }
    if (this.text[this.#pos] === "-") {
      this.#pos++;
      const number = NUMBER.exec(this.text.slice(this.#pos));
      if (!number) throw new ExpressionError('operator "-" is only allowed before a number');
      this.#pos += number[0].length;
      return this.#noCall({ type: "literal", value: -Number(number[0]) });
    }
    return this.#noCall(this.#primary());
  }

  /** An operand followed by `(` is a call: refused. */
  #noCall(expression: Expression): Expression {
    this.#skipSpace();
    if (this.text[this.#pos] === "(") throw new ExpressionError("function calls are not allowed");
    return expression;
  }

  #primary(): Expression {
    this.#skipSpace();
    const char = this.text[this.#pos];
    if (char === "(") {
      this.#pos++;
      const inner = this.#or();
      if (!this.#eat(")")) this.#unexpected();
      return inner;
    }
    if (char === "@") return this.#current();
    if (char === "'" || char === '"') {
      const { value, end } = readQuoted(this.text, this.#pos);
      this.#pos = end;
      return { type: "literal", value };
    }
    if (char === "/") throw new ExpressionError("regex literals are not allowed");
    const number = NUMBER.exec(this.text.slice(this.#pos));
    if (number) {
      this.#pos += number[0].length;
      return { type: "literal", value: Number(number[0]) };
    }
    if (char !== undefined && NAME_START.test(char)) {
      const name = this.#name();
      if (name === "true" || name === "false") return { type: "literal", value: name === "true" };
      if (name === "null") return { type: "literal", value: null };
      this.#skipSpace();
      if (this.text[this.#pos] === "(") throw new ExpressionError("function calls are not allowed");
      throw new ExpressionError(`unknown name "${name}" (only @ and literals)`);
    }
    return this.#unexpected();
  }

  #name(): string {
    const start = this.#pos;
    while (NAME_PART.test(this.text[this.#pos] ?? "")) this.#pos++;
    return this.text.slice(start, this.#pos);
  }

  #current(): Expression {
    this.#pos++;
    if (NAME_START.test(this.text[this.#pos] ?? "")) {
      throw new ExpressionError(`unknown name "@${this.#name()}" (only @ and its properties)`);
    }
    const keys: string[] = [];
    for (;;) {
      if (this.text[this.#pos] === ".") {
        this.#pos++;
        if (this.text[this.#pos] === "*") {
          throw new ExpressionError("wildcards are not allowed in filter expressions");
        }
        const name = this.#name();
        if (name === "") this.#unexpected();
        keys.push(name);
      } else if (this.text[this.#pos] === "[") {
        this.#pos++;
        keys.push(this.#bracketKey());
      } else {
        break;
      }
      checkPropertyName(keys[keys.length - 1]);
    }
    return { type: "current", keys };
  }

  #bracketKey(): string {
    this.#skipSpace();
    const char = this.text[this.#pos];
    let key: string;
    if (char === "'" || char === '"') {
      const quoted = readQuoted(this.text, this.#pos);
      key = quoted.value;
      this.#pos = quoted.end;
    } else if (/\d/.test(char ?? "")) {
      key = /^\d+/.exec(this.text.slice(this.#pos))![0];
      this.#pos += key.length;
    } else {
      throw new ExpressionError("computed property names are not allowed");
    }
    if (!this.#eat("]")) throw new ExpressionError("computed property names are not allowed");
    return key;
  }
}

/** Parses a filter expression; throws an ExpressionError saying what is not allowed. */
export function parseExpression(text: string): Expression {
  return new ExpressionParser(text).parse();
}

/** A container's own property, or undefined: never an inherited one. */
export function ownProperty(container: unknown, key: string): unknown {
  if (!container || !Object.hasOwn(container as object, key)) return undefined;
  return (container as Record<string, unknown>)[key];
}

const isPrimitive = (value: unknown) => value === null || typeof value !== "object";

/**
 * JavaScript's comparison of two JSON values, without conversions of objects and arrays: an
 * object or array equals only itself and is neither less nor greater than anything.
 */
function compare(operator: CompareOperator, left: unknown, right: unknown): boolean {
  const primitives = isPrimitive(left) && isPrimitive(right);
  switch (operator) {
    case "===":
      return left === right;
    case "!==":
      return left !== right;
    case "==":
      // deno-lint-ignore eqeqeq
      return primitives ? left == right : left === right;
    case "!=":
      // deno-lint-ignore eqeqeq
      return primitives ? left != right : left !== right;
    case "<":
      return primitives && (left as number) < (right as number);
    case "<=":
      return primitives && (left as number) <= (right as number);
    case ">":
      return primitives && (left as number) > (right as number);
    case ">=":
      return primitives && (left as number) >= (right as number);
  }
}

/** Evaluates an expression with `@` bound to `current`; a missing property is undefined. */
export function evaluateExpression(expression: Expression, current: unknown): unknown {
  switch (expression.type) {
    case "literal":
      return expression.value;
    case "current": {
      let value = current;
      for (const key of expression.keys) value = ownProperty(value, key);
      return value;
    }
    case "not":
      return !evaluateExpression(expression.operand, current);
    case "logical": {
      const left = evaluateExpression(expression.left, current);
      if (expression.operator === "&&") {
        return left ? evaluateExpression(expression.right, current) : left;
      }
      return left ? left : evaluateExpression(expression.right, current);
    }
    case "compare":
      return compare(
        expression.operator,
        evaluateExpression(expression.left, current),
        evaluateExpression(expression.right, current),
      );
  }
}
