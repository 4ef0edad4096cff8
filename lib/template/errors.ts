/** The errors a template gives: refused when parsed, or stopped while rendering. Browser-safe. */
import type { Position } from "./ast.ts";

/** A template that does not parse; the message starts with its line and column. */
export class TemplateSyntaxError extends Error {
  override name = "TemplateSyntaxError";
  constructor(readonly reason: string, readonly at: Position) {
    super(`line ${at.line}, column ${at.column}: ${reason}`);
  }
}

/** A template that could not be rendered for one event (its step budget ran out …). */
export class TemplateRenderError extends Error {
  override name = "TemplateRenderError";
}
