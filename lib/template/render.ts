/**
 * Rendering parsed template nodes for one event into rich text (the neutral message's
 * blocks of spans). Work is bounded twice: every node, path step and written value spends
 * steps of one budget, and every text read, compared or written spends steps by its length
 * (a TemplateRenderError when it runs out), and the output stops at a
 * character cap (cut with `…`, not an error). Nothing a payload holds is ever interpreted:
 * values are text, and the platform renderers escape them. Browser-safe.
 */
import { EvaluationBudget, FilterEvaluationError } from "../jsonpath/budget.ts";
import { pathEvaluator } from "../jsonpath/path_eval.ts";
import { type Block, line, quote, type RichText, type Span, text } from "../format/message.ts";
import { ELLIPSIS } from "../format/text.ts";
import type { Expression, TemplateNode, VariableName } from "./ast.ts";
import { TemplateRenderError } from "./errors.ts";
import { type AnyHelper, helperNamed } from "./helpers.ts";
import { cut, textOf, truthy } from "./values.ts";

/** Steps one template may spend on one event. */
export const TEMPLATE_STEPS = 100_000;

/** The event facts a template reads: its payload and its name. */
export interface TemplateEvent {
  kind: string;
  action?: string;
  provider: string;
  payload: unknown;
}

/** Thrown (and caught here) when the output reached its cap: what was written is the result. */
class OutputFull extends Error {}

/** Collects spans into lines and quoted blocks, up to `max` characters. */
class Writer {
  readonly blocks: Block[] = [];
  #spans: Span[] = [];
  #length = 0;
  /** A quote just ended: the line break that follows it is the quote's own. */
  #afterQuote = false;

  constructor(readonly max: number) {}

  get room(): number {
    return Math.max(this.max - this.#length, 0);
  }

  text(value: string) {
    const parts = this.#fit(value).split("\n");
    parts.forEach((part, index) => {
      if (index > 0 && !this.#afterQuote) this.#newLine();
      if (index > 0 || part) this.#afterQuote = false;
      if (part) this.#push(text(part));
    });
    this.#checkFull(value);
  }

  span(span: Span) {
    const fitted = this.#fit(span.text);
    if (fitted) this.#push({ ...span, text: fitted });
    this.#checkFull(span.text);
  }

  quote(value: string) {
    const fitted = this.#fit(value);
    if (this.#spans.length > 0) this.#newLine();
    if (fitted) this.blocks.push(quote(fitted));
    this.#afterQuote = fitted !== "";
    this.#checkFull(value);
  }

  /** The blocks written, without empty lines at the start and end. */
  finish(): RichText {
    if (this.#spans.length > 0) this.#newLine();
    const blocks = [...this.blocks];
    const empty = (block: Block | undefined) => block?.kind === "line" && block.spans.length === 0;
    while (empty(blocks[0])) blocks.shift();
    while (empty(blocks[blocks.length - 1])) blocks.pop();
    return blocks;
  }

  #fit(value: string): string {
    this.#length += value.length;
    if (this.#length <= this.max) return value;
    const room = this.max - (this.#length - value.length) - ELLIPSIS.length;
    return room > 0 ? cut(value, room) + ELLIPSIS : "";
  }

  #checkFull(value: string) {
    if (value && this.#length > this.max) throw new OutputFull();
  }

  #push(span: Span) {
    this.#afterQuote = false;
    const last = this.#spans[this.#spans.length - 1];
    if (span.kind === "text" && last?.kind === "text") last.text += span.text;
    else this.#spans.push(span);
  }

  #newLine() {
    this.blocks.push(line(...this.#spans));
    this.#spans = [];
  }
}

/** One loop level: its item and where it is in the list. */
interface Loop {
  item: unknown;
  index: number;
  count: number;
}

class Renderer {
  readonly #budget = new EvaluationBudget(TEMPLATE_STEPS);
  readonly #loops: Loop[] = [];

  constructor(readonly event: TemplateEvent, readonly writer: Writer) {}

  nodes(nodes: readonly TemplateNode[]) {
    for (const node of nodes) {
      this.#budget.spend();
      switch (node.type) {
        case "text":
          this.#budget.spendChars(Math.min(node.text.length, this.writer.room + 1));
          this.writer.text(node.text);
          break;
        case "output":
          this.#output(node.expression);
          break;
        case "if": {
          const holds = truthy(this.#value(node.condition)) !== node.negate;
          this.nodes(holds ? node.then : node.otherwise);
          break;
        }
        case "each":
          this.#each(node);
          break;
      }
    }
  }

  #each(node: Extract<TemplateNode, { type: "each" }>) {
    const list = this.#value(node.list);
    const items = Array.isArray(list) ? list : [];
    if (items.length === 0) {
      this.nodes(node.otherwise);
      return;
    }
    const count = Math.min(items.length, node.max);
    for (let index = 0; index < count; index++) {
      this.#loops.push({ item: items[index], index, count });
      this.nodes(node.body);
      this.#loops.pop();
    }
  }

  #output(expression: Expression) {
    if (expression.type === "call") {
      const helper = helperNamed(expression.helper)!;
      if (helper.kind === "inline") {
        this.writer.span(helper.run(this.#args(expression.args), this.#context()));
        return;
      }
      if (helper.kind === "block") {
        this.writer.quote(helper.run(this.#args(expression.args), this.#context()));
        return;
      }
    }
    this.writer.text(textOf(this.#value(expression), this.writer.room + 1, this.#budget));
  }

  #context() {
    return { budget: this.#budget, max: this.writer.room + 1 };
  }

  #args(args: readonly Expression[]): unknown[] {
    return args.map((arg) => this.#value(arg));
  }

  #value(expression: Expression): unknown {
    this.#budget.spend();
    switch (expression.type) {
      case "literal":
        return expression.value;
      case "variable":
        return this.#variable(expression.name);
      case "path": {
        const loop = this.#loops[this.#loops.length - 1];
        const scope = expression.root || !loop ? this.event.payload : loop.item;
        if (expression.segments.length === 0) return scope;
        const values = pathEvaluator(expression.segments)(scope, this.#budget);
        return expression.singular ? values[0] : values;
      }
      case "call": {
        const helper = helperNamed(expression.helper) as AnyHelper & { kind: "value" };
        return helper.run(this.#args(expression.args), this.#context());
      }
    }
  }

  #variable(name: VariableName): unknown {
    const loop = this.#loops[this.#loops.length - 1];
    switch (name) {
      case "index":
        return loop?.index;
      case "first":
        return loop?.index === 0;
      case "last":
        return loop !== undefined && loop.index === loop.count - 1;
      case "event":
        return this.event.kind;
      case "action":
        return this.event.action;
      case "provider":
        return this.event.provider;
    }
  }
}

/**
 * Renders parsed nodes for an event into at most `max` characters of rich text. Throws a
 * TemplateRenderError when the step budget runs out.
 */
export function renderNodes(
  nodes: readonly TemplateNode[],
  event: TemplateEvent,
  max: number,
): RichText {
  const writer = new Writer(max);
  try {
    new Renderer(event, writer).nodes(nodes);
  } catch (error) {
    if (error instanceof FilterEvaluationError) {
      throw new TemplateRenderError(
        `step budget exceeded (more than ${TEMPLATE_STEPS} steps for one event)`,
      );
    }
    if (!(error instanceof OutputFull)) throw error;
  }
  return writer.finish();
}
