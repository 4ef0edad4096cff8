/**
 * Cutting an HTML string (as sent with Telegram's `parse_mode: HTML`) to a
 * length without breaking it: never inside a tag, an entity or a grapheme
 * cluster, tags left open are closed, and the cut is marked with `…`.
 */

import { clusterStart } from "./grapheme.ts";
import { ELLIPSIS } from "./text.ts";

const TOKEN = /<[^<>]*>|&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{1,8});|[\s\S]/giu;
const OPENING = /^<([a-z][a-z0-9-]*)/i;
const CLOSING = /^<\/([a-z][a-z0-9-]*)\s*>$/i;

interface OpenTag {
  name: string;
  /** Where the opening tag starts in the output. */
  start: number;
  hasContent: boolean;
}

function closingTags(open: OpenTag[]): string {
  return open.toReversed().map((tag) => `</${tag.name}>`).join("");
}

/** Whole tokens taken from the start, the elements they leave open, and where they end. */
interface Taken {
  output: string;
  open: OpenTag[];
  /** The index in the HTML of the first token not taken. */
  end: number;
}

/**
 * The longest run of whole tokens from the start that fits in `max` once `…` and the closing
 * tags of the elements left open are added, taking nothing at or past the index `stop`.
 */
function takeTokens(tokens: readonly string[], max: number, stop: number): Taken {
  const open: OpenTag[] = [];
  let output = "";
  let reserve = ELLIPSIS.length;
  let end = 0;
  for (const token of tokens) {
    if (end >= stop) break;
    const closing = CLOSING.exec(token);
    if (closing) {
      end += token.length;
      const index = open.findLastIndex((tag) => tag.name === closing[1].toLowerCase());
      if (index === -1) continue;
      const closed = open.splice(index);
      reserve -= closingTags(closed).length;
      output += closingTags(closed.slice(1)) + token;
      continue;
    }
    const opening = token.length > 1 && token.startsWith("<") ? OPENING.exec(token) : null;
    const closeCost = opening ? `</${opening[1]}>`.length : 0;
    if (output.length + token.length + reserve + closeCost > max) break;
    end += token.length;
    if (opening) {
      open.push({ name: opening[1].toLowerCase(), start: output.length, hasContent: false });
      reserve += closeCost;
    } else {
      for (const tag of open) tag.hasContent = true;
    }
    output += token;
  }
  return { output, open, end };
}

/**
 * The HTML itself when it is at most `max` UTF-16 units long; otherwise its
 * longest prefix of whole tokens (tags, entities, code points) that ends between
 * grapheme clusters and still fits once `…` and the closing tags of the elements
 * left open are added. Elements the cut would leave empty are dropped.
 */
export function truncateHtml(html: string, max: number): string {
  if (html.length <= max) return html;
  if (max < ELLIPSIS.length) return "";
  const tokens = html.match(TOKEN) ?? [];
  const fitting = takeTokens(tokens, max, html.length);
  const start = clusterStart(html, fitting.end);
  let { output, open } = start < fitting.end ? takeTokens(tokens, max, start) : fitting;
  while (open.length > 0 && !open[open.length - 1].hasContent) {
    output = output.slice(0, open.pop()!.start);
  }
  return output.trimEnd() + ELLIPSIS + closingTags(open);
}
