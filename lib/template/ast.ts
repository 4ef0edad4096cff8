/**
 * The parsed form of a message template: a list of nodes (text, outputs, conditionals and
 * loops), whose expressions are payload paths, literals, loop variables and helper calls.
 * Browser-safe.
 */
import type { Segment } from "../jsonpath/path_syntax.ts";

/** A place in the template source, counted from 1. */
export interface Position {
  line: number;
  column: number;
}

/** A loop or event variable: `@index`, `@first`, `@last`, `@event`, `@action`, `@provider`. */
export type VariableName = "index" | "first" | "last" | "event" | "action" | "provider";

/** A value a template computes. */
export type Expression =
  | { type: "literal"; value: string | number | boolean | null }
  | { type: "variable"; name: VariableName }
  /** `this` (the loop item) or a path; `root` paths start at the payload (`$…`). */
  | { type: "path"; root: boolean; segments: readonly Segment[]; singular: boolean }
  | { type: "call"; helper: string; args: Expression[]; at: Position };

/** A piece of a template. */
export type TemplateNode =
  | { type: "text"; text: string }
  | { type: "output"; expression: Expression; at: Position }
  | {
    type: "if";
    negate: boolean;
    condition: Expression;
    then: TemplateNode[];
    otherwise: TemplateNode[];
  }
  | {
    type: "each";
    list: Expression;
    max: number;
    body: TemplateNode[];
    otherwise: TemplateNode[];
  };
