/**
 * Reading the formatter's chat markup back into a small tree the console renders as elements
 * (never as HTML): Telegram's HTML subset and the Discord markdown the formatter writes
 * (bold, italic, code, links, quotes, backslash escapes). Anything else stays text, so a
 * payload's text can never become markup in the preview. Browser-safe.
 */

/** A styled run. */
type MarkupTag = "b" | "i" | "u" | "s" | "code" | "pre" | "a" | "blockquote";

/** Text, or a styled run of nodes (`href` for links). */
export type MarkupNode = string | { tag: MarkupTag; href?: string; children: MarkupNode[] };

const TELEGRAM_TAGS: Record<string, MarkupTag> = {
  b: "b",
  strong: "b",
  i: "i",
  em: "i",
  u: "u",
  ins: "u",
  s: "s",
  strike: "s",
  del: "s",
  code: "code",
  pre: "pre",
  a: "a",
  blockquote: "blockquote",
};

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X"
        ? parseInt(name.slice(2), 16)
        : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return Object.hasOwn(ENTITIES, name.toLowerCase()) ? ENTITIES[name.toLowerCase()] : whole;
  });
}

/** Only web links are kept as links. */
function safeHref(href: string | undefined): string | undefined {
  return href && /^https?:\/\//i.test(href) ? href : undefined;
}

interface Open {
  tag: MarkupTag;
  name: string;
  href?: string;
  children: MarkupNode[];
}

/** Telegram HTML (`parse_mode: "HTML"`) as a markup tree. */
export function parseTelegramHtml(html: string): MarkupNode[] {
  const root: Open = { tag: "b", name: "", children: [] };
  const stack: Open[] = [root];
  const top = () => stack[stack.length - 1];
  const TAG = /<(\/?)([a-z]+)((?:\s+[a-z-]+="[^"]*")*)\s*>/gi;
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    const [whole, closing, rawName, attributes] = match;
    const name = rawName.toLowerCase();
    const tag = Object.hasOwn(TELEGRAM_TAGS, name) ? TELEGRAM_TAGS[name] : undefined;
    if (match.index > last) top().children.push(decodeEntities(html.slice(last, match.index)));
    last = match.index + whole.length;
    if (!tag) {
      top().children.push(whole);
    } else if (closing) {
      const at = stack.findLastIndex((open) => open.name === name);
      if (at > 0) stack.length = at;
    } else {
      const href = /href="([^"]*)"/i.exec(attributes)?.[1];
      const open: Open = { tag, name, children: [] };
      if (tag === "a") open.href = safeHref(href === undefined ? undefined : decodeEntities(href));
      top().children.push(open as MarkupNode);
      stack.push(open);
    }
  }
  if (last < html.length) top().children.push(decodeEntities(html.slice(last)));
  return clean(root.children);
}

/** Drops the parser's bookkeeping (`name`) from the tree. */
function clean(nodes: MarkupNode[]): MarkupNode[] {
  return nodes.map((node) =>
    typeof node === "string" ? node : {
      tag: node.tag,
      ...(node.href === undefined ? {} : { href: node.href }),
      children: clean(node.children),
    }
  );
}

function inlineMarkdown(text: string): MarkupNode[] {
  const root: Open = { tag: "b", name: "", children: [] };
  const stack: Open[] = [root];
  const top = () => stack[stack.length - 1];
  let buffer = "";
  const flush = () => {
    if (buffer) top().children.push(buffer);
    buffer = "";
  };
  const toggle = (tag: MarkupTag, marker: string) => {
    flush();
    const at = stack.findLastIndex((open) => open.name === marker);
    if (at > 0) {
      stack.length = at;
      return;
    }
    const open: Open = { tag, name: marker, children: [] };
    top().children.push(open as MarkupNode);
    stack.push(open);
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\\" && i + 1 < text.length) {
      buffer += text[++i];
    } else if (text.startsWith("**", i)) {
      toggle("b", "**");
      i++;
    } else if (char === "*" || char === "_") {
      toggle("i", char);
    } else if (char === "`") {
      const end = text.indexOf("`", i + 1);
      if (end < 0) {
        buffer += char;
        continue;
      }
      flush();
      top().children.push({ tag: "code", children: [text.slice(i + 1, end)] });
      i = end;
    } else if (char === "[") {
      const link = /^\[((?:\\.|[^\]\\])*)\]\(([^)\s]*)\)/.exec(text.slice(i));
      if (!link) {
        buffer += char;
        continue;
      }
      flush();
      top().children.push({
        tag: "a",
        href: safeHref(link[2].replaceAll("%28", "(").replaceAll("%29", ")")),
        children: inlineMarkdown(link[1]),
      });
      i += link[0].length - 1;
    } else {
      buffer += char;
    }
  }
  flush();
  return clean(root.children);
}

/** Discord markdown, as the formatter writes it, as a markup tree (lines end with `\n`). */
export function parseDiscordMarkdown(markdown: string): MarkupNode[] {
  const nodes: MarkupNode[] = [];
  const lines = markdown.split("\n");
  lines.forEach((line, index) => {
    const last = index === lines.length - 1;
    const quote = /^> ?(.*)$/.exec(line);
    if (quote) {
      const previous = nodes.at(-1);
      const content = inlineMarkdown(quote[1]);
      if (previous && typeof previous !== "string" && previous.tag === "blockquote") {
        previous.children.push("\n", ...content);
      } else nodes.push({ tag: "blockquote", children: content });
      return;
    }
    nodes.push(...inlineMarkdown(line));
    if (!last) nodes.push("\n");
  });
  return nodes;
}
