/**
 * Message templates: a route may replace the built-in message text with its own, written in a
 * small template language (see docs/templates.md). `templateError` checks a template when a
 * route is saved; `renderTemplateMessage` renders it for an event into the same neutral
 * message the built-in formatters make, so the platform renderers escape and cut it exactly
 * as they do every other message. Browser-safe.
 */
import type { Message, RichText } from "../format/message.ts";
import type { RouteTemplate } from "../types.ts";
import { TemplateRenderError, TemplateSyntaxError } from "./errors.ts";
import { parseTemplate } from "./parse.ts";
import { renderNodes, type TemplateEvent } from "./render.ts";

export { TemplateRenderError, TemplateSyntaxError } from "./errors.ts";
export { parseTemplate } from "./parse.ts";
export { renderNodes, TEMPLATE_STEPS, type TemplateEvent } from "./render.ts";

/** Most characters a rendered title may have (Discord's embed title limit). */
const TITLE_OUTPUT_MAX = 256;

/** Most characters a rendered body may have (Discord's description and Telegram's text limit). */
export const BODY_OUTPUT_MAX = 4096;

const PARTS = ["title", "body"] as const;

/** A part of a route template. */
type Part = typeof PARTS[number];

/**
 * Why a template does not parse (`body: line 2, column 5: {{#if}} is not closed …`), or null
 * when all of its parts parse.
 */
export function templateError(template: RouteTemplate): string | null {
  for (const part of PARTS) {
    const source = template[part];
    if (source === undefined) continue;
    try {
      parseTemplate(source);
    } catch (error) {
      if (error instanceof TemplateSyntaxError) return `${part}: ${error.message}`;
      throw error;
    }
  }
  return null;
}

/** Rich text as one line of plain text (for a title). */
function plainText(blocks: RichText): string {
  return blocks
    .map((block) =>
      block.kind === "quote" ? block.text : block.spans.map((span) => span.text).join("")
    )
    .join(" ")
    .replaceAll(/\s+/g, " ")
    .trim();
}

/**
 * The message for an event with a route's template: the built-in message's frame (link,
 * author, colour, footer, time) with the template's title (the built-in one when the template
 * has none, or it renders empty) and its body in place of the built-in text and fields.
 * Throws a TemplateRenderError saying what went wrong (a template that does not parse, a
 * budget that ran out); the caller falls back to the built-in message.
 */
export function renderTemplateMessage(
  template: RouteTemplate,
  event: TemplateEvent,
  builtIn: Message,
): Message {
  const render = (part: Part, max: number): RichText => {
    try {
      return renderNodes(parseTemplate(template[part] ?? ""), event, max);
    } catch (error) {
      if (error instanceof TemplateRenderError || error instanceof TemplateSyntaxError) {
        throw new TemplateRenderError(`${part}: ${error.message}`);
      }
      throw error;
    }
  };
  const title = template.title === undefined ? "" : plainText(render("title", TITLE_OUTPUT_MAX));
  const description = render("body", BODY_OUTPUT_MAX);
  const { fields: _fields, description: _description, ...frame } = builtIn;
  const message: Message = { ...frame, title: title || builtIn.title };
  if (description.length > 0) message.description = description;
  return message;
}
