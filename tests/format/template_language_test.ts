/**
 * The template language (lib/template): each construct, the checks made when a template is
 * parsed (with line and column), and hostile payloads: markup and mention injection, huge
 * lists, deep nesting and budget exhaustion, all ending as escaped text within the limits.
 */
import assert from "node:assert/strict";
import { renderDiscord, renderTelegram } from "../../lib/format/mod.ts";
import type { Message, RichText } from "../../lib/format/message.ts";
import {
  BODY_OUTPUT_MAX,
  parseTemplate,
  renderNodes,
  renderTemplateMessage,
  templateError,
  TemplateRenderError,
  TemplateSyntaxError,
} from "../../lib/template/mod.ts";
import { MAX_EACH, MAX_NESTING } from "../../lib/template/parse.ts";

const EVENT = { kind: "pull_request", action: "opened", provider: "github" };

/** Rich text as plain text: spans joined, blocks on lines, quotes prefixed with `> `. */
function plain(blocks: RichText): string {
  return blocks.map((block) =>
    block.kind === "quote" ? `> ${block.text}` : block.spans.map((span) => span.text).join("")
  ).join("\n");
}

function render(source: string, payload: unknown, max = BODY_OUTPUT_MAX): RichText {
  return renderNodes(parseTemplate(source), { ...EVENT, payload }, max);
}

const text = (source: string, payload: unknown = {}) => plain(render(source, payload));

const BUILT_IN: Message = {
  title: "Built-in title",
  url: "https://github.com/o/r/pull/7",
  color: 0x2da44e,
  description: [{ kind: "line", spans: [{ kind: "text", text: "built-in text" }] }],
  fields: [{ name: "Branch", value: [{ kind: "text", text: "main" }] }],
  footer: { repository: "o/r", provider: "github" },
};

Deno.test("template: text and paths, relative, rooted and with JSONPath selectors", () => {
  const payload = {
    number: 7,
    draft: false,
    pull_request: { title: "Fix it", labels: [{ name: "bug" }, { name: "ui" }] },
    "odd key": "yes",
  };
  assert.equal(text("PR #{{number}}: {{pull_request.title}}", payload), "PR #7: Fix it");
  assert.equal(text("{{$.pull_request.title}} {{draft}}", payload), "Fix it false");
  assert.equal(text("{{pull_request.labels[1].name}}", payload), "ui");
  assert.equal(text("{{pull_request.labels[*].name}}", payload), "bug, ui");
  assert.equal(text("{{$..name}}", payload), "bug, ui");
  assert.equal(text("{{$['odd key']}}", payload), "yes");
  assert.equal(text("[{{missing.deeply}}]", payload), "[]");
  assert.equal(text("{{pull_request.labels[0]}}", payload), '{"name":"bug"}');
  assert.equal(
    text("{{@event}}.{{@action}} via {{@provider}}", payload),
    "pull_request.opened via github",
  );
  assert.equal(text("\\{{number}} is literal", payload), "{{number}} is literal");
  assert.equal(text("a{{! a comment }}b", payload), "ab");
});

Deno.test("template: #if, #unless and {{else}}, with truthiness of JSON values", () => {
  const source = "{{#if value}}yes{{else}}no{{/if}}";
  for (const value of [true, 1, "x", [0], {}]) assert.equal(text(source, { value }), "yes");
  for (const value of [false, 0, "", [], null]) assert.equal(text(source, { value }), "no");
  assert.equal(text(source, {}), "no");
  assert.equal(text("{{#unless draft}}ready{{/unless}}", { draft: false }), "ready");
  assert.equal(
    text('{{#if (eq action "opened")}}new{{else}}{{action}}{{/if}}', { action: "closed" }),
    "closed",
  );
  assert.equal(text('{{#if (ne action "opened")}}not new{{/if}}', { action: "closed" }), "not new");
});

Deno.test("template: #each with this, loop variables, nesting, else and a bound", () => {
  const payload = {
    commits: [
      { id: "a1b2c3d4e5", message: "first line\nmore", files: ["x.ts", "y.ts"] },
      { id: "f6e7d8", message: "second", files: [] },
    ],
    repository: { name: "r" },
  };
  const source = [
    "{{#each commits}}",
    "{{@index}} {{code (truncate id 7)}} {{firstline message}} in {{$.repository.name}}" +
    "{{#each files}} [{{this}}{{#unless @last}},{{/unless}}]{{/each}}" +
    "{{#if @first}} (first){{/if}}",
    "{{/each}}",
  ].join("\n");
  assert.equal(
    text(source, payload),
    "0 a1b2c3… first line in r [x.ts,] [y.ts] (first)\n1 f6e7d8 second in r",
  );
  assert.equal(text("{{#each nothing}}x{{else}}none{{/each}}", {}), "none");
  assert.equal(text("{{#each list 2}}{{this}}{{/each}}", { list: [1, 2, 3] }), "12");
  const many = Array.from({ length: 500 }, (_, index) => index);
  assert.equal(text("{{#each list}}.{{/each}}", { list: many }), ".".repeat(MAX_EACH));
  assert.equal(text("{{#each list}}{{this.name}}{{/each}}", { list: [{ name: "n" }] }), "n");
  assert.equal(
    text("{{#each list}}[{{name}}]{{/each}}", { name: "top", list: [null, { name: "n" }] }),
    "[][n]",
    "a null item has no fields; the payload's are not read instead",
  );
});

Deno.test("template: truncate keeps a family emoji or a flag whole", () => {
  const family = "👨‍👩‍👧‍👦";
  for (let pad = 0; pad < 12; pad++) {
    const body = `${"a".repeat(pad)}${family}🇩🇪${family}`;
    for (let count = 2; count < body.length; count++) {
      const shown = text(`{{truncate body ${count}}}`, { body });
      const kept = shown.endsWith("…") ? shown.slice(0, -1) : shown;
      assert.ok(body.startsWith(kept), `${pad} ${count}`);
      const clusters = [...new Intl.Segmenter().segment(body)].map((part) => part.segment);
      let prefix = "";
      const whole = clusters.some((cluster) => (prefix += cluster) === kept) || kept === "";
      assert.ok(
        whole,
        `truncate ${count} after ${pad} letters split a cluster: ${JSON.stringify(kept)}`,
      );
    }
  }
});

Deno.test("template: standalone block lines leave no blank lines", () => {
  const source = "Labels:\n  {{#each labels}}\n- {{name}}\n  {{/each}}\nEnd";
  assert.equal(text(source, { labels: [{ name: "a" }, { name: "b" }] }), "Labels:\n- a\n- b\nEnd");
});

Deno.test("template: helpers make links, code, styles, quotes and values", () => {
  const blocks = render(
    '{{link url "the PR"}} {{link url}} {{link "javascript:alert(1)" "bad"}} {{bold who}} ' +
      '{{italic who}} {{code snippet}}\n{{quote body}}\n{{length list}} {{join list " | "}} ' +
      '{{default missing "none"}} {{truncate body 8}}',
    {
      url: "https://example.org/pr/1",
      who: "octo",
      snippet: "a\nb",
      body: "long body text",
      list: ["x", "y"],
    },
  );
  assert.deepEqual(blocks[0].kind === "line" && blocks[0].spans, [
    { kind: "link", text: "the PR", url: "https://example.org/pr/1" },
    { kind: "text", text: " " },
    { kind: "link", text: "https://example.org/pr/1", url: "https://example.org/pr/1" },
    { kind: "text", text: " bad " },
    { kind: "bold", text: "octo" },
    { kind: "text", text: " " },
    { kind: "italic", text: "octo" },
    { kind: "text", text: " " },
    { kind: "code", text: "a b" },
  ]);
  assert.deepEqual(blocks[1], { kind: "quote", text: "long body text" });
  assert.equal(plain([blocks[2]]), "2 x | y none long bo…");
});

Deno.test("template: parse errors name the line and column and what is wrong", () => {
  const cases: [string, string][] = [
    ["{{#if x}}", "line 1, column 1: {{#if}} is not closed (missing {{/if}})"],
    ["a\n  {{/if}}", "line 2, column 3: {{/if}} without an open block"],
    [
      "{{#if x}}{{/each}}",
      "line 1, column 10: {{/each}} closes {{#if}} opened at line 1, column 1",
    ],
    ["{{#each x}}{{else}}{{else}}{{/each}}", "line 1, column 20: a second {{else}} in {{#each}}"],
    ["{{else}}", "line 1, column 1: {{else}} outside a block"],
    ["{{#if a}}{{else if b}}{{/if}}", "line 1, column 17: {{else}} takes nothing else"],
    ["{{#with x}}{{/with}}", 'line 1, column 3: unknown block "#with" (use #if, #unless or #each)'],
    ["{{shout x}}", 'line 1, column 3: unknown helper "shout"'],
    ["{{truncate x}}", 'line 1, column 3: "truncate" takes 2 arguments'],
    ["{{truncate x y}}", 'line 1, column 14: expected a whole number from 1 to 4096, not "y"'],
    [
      "{{#each x 0}}{{/each}}",
      'line 1, column 11: expected a whole number from 1 to 4096, not "0"',
    ],
    ["{{a[}}", 'line 1, column 3: invalid JSONPath: unclosed "[" in "a["'],
    ["{{$.__proto__}}", 'invalid JSONPath: property "__proto__" is not allowed'],
    ["{{$[?(@.a.constructor)]}}", 'property "constructor" is not allowed'],
    ["{{@index}}", "line 1, column 3: @index is only defined inside {{#each}}"],
    ["{{@root}}", 'line 1, column 3: unknown variable "@root"'],
    ["{{x", "line 1, column 1: unclosed tag (missing }})"],
    ["{{! note", "line 1, column 1: unclosed comment (missing }})"],
    ['{{default x "open}}', "line 1, column 13: unclosed string"],
    ["{{}}", "line 1, column 1: empty tag {{}}"],
    ["{{code (link a)}}", '"link" formats the message and can only be used as {{link …}}'],
    ["{{#if truncate}}{{/if}}", "a helper inside a tag goes in parentheses: (truncate …)"],
    ["{{(x)}}", "parentheses start with a helper name"],
    ['{{join list ", " 3}}', '"join" takes 1 or 2 arguments'],
    ["{{join list sep}}", 'expected a quoted string, not "sep"'],
    ["{{x y}}", 'unknown helper "x"'],
  ];
  for (const [source, expected] of cases) {
    assert.throws(() => parseTemplate(source), (error: unknown) => {
      assert.ok(error instanceof TemplateSyntaxError, source);
      assert.ok(error.message.includes(expected), `${source}: ${error.message}`);
      return true;
    });
  }
  const deep = "{{#if a}}".repeat(MAX_NESTING + 1) + "{{/if}}".repeat(MAX_NESTING + 1);
  assert.throws(() => parseTemplate(deep), /blocks nested deeper than 8/);
  const parens = "{{length " + "(length ".repeat(MAX_NESTING + 1) + "x" + ")".repeat(9) + "}}";
  assert.throws(() => parseTemplate(parens), /parentheses nested deeper than 8/);
  assert.equal(
    templateError({ title: "{{#if}}", body: "ok" }),
    "title: line 1, column 1: {{#if}} needs a value",
  );
  assert.equal(
    templateError({ body: "{{/each}}" }),
    "body: line 1, column 1: {{/each}} without an open block",
  );
  assert.equal(templateError({ title: "T", body: "{{#each a}}{{this}}{{/each}}" }), null);
});

Deno.test("template: hostile values stay text, escaped once by each platform renderer", () => {
  const payload = {
    title: "@everyone <@123> <script>alert(1)</script>",
    body: "**bold** [x](https://evil.test) <b>html</b> & # heading\n- item `tick`",
    url: 'https://example.org/a?b=<c>&d="e"',
  };
  const message = renderTemplateMessage(
    { title: "{{title}}", body: "{{body}}\n{{link url title}} {{code body}}" },
    { ...EVENT, payload },
    BUILT_IN,
  );
  const discord = renderDiscord(message);
  const embed = discord.embeds[0];
  assert.deepEqual(discord.allowed_mentions, { parse: [] });
  assert.equal(discord.content, undefined);
  assert.equal(embed.title, payload.title);
  assert.ok(embed.description!.includes("\\*\\*bold\\*\\* \\[x\\]\\(https://evil.test\\)"));
  assert.ok(embed.description!.includes("\\<b\\>html\\</b\\>"));
  assert.ok(embed.description!.includes("\\<@123\\>"));
  assert.ok(embed.description!.includes("\\- item"));
  const telegram = renderTelegram(message).text;
  assert.ok(!telegram.includes("<script>"));
  assert.ok(telegram.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
  assert.ok(telegram.includes("&lt;b&gt;html&lt;/b&gt; &amp; # heading"));
  assert.ok(telegram.includes('<a href="https://example.org/a?b=%3Cc%3E&amp;d=%22e%22">'));
  assert.equal(telegram.match(/<(?!\/?(b|i|a|code|blockquote)[ >])/g), null);
});

Deno.test("template: the message keeps the built-in frame and replaces title, text and fields", () => {
  const message = renderTemplateMessage(
    { body: "Custom {{number}}" },
    { ...EVENT, payload: { number: 7 } },
    BUILT_IN,
  );
  assert.equal(message.title, "Built-in title");
  assert.equal(plain(message.description!), "Custom 7");
  assert.equal(message.fields, undefined);
  assert.equal(message.url, BUILT_IN.url);
  assert.equal(message.color, BUILT_IN.color);
  assert.deepEqual(message.footer, BUILT_IN.footer);
  const titled = renderTemplateMessage(
    { title: "{{#if missing}}{{missing}}{{/if}}", body: "x" },
    { ...EVENT, payload: {} },
    BUILT_IN,
  );
  assert.equal(titled.title, "Built-in title", "an empty rendered title keeps the built-in one");
  const multiLine = renderTemplateMessage(
    { title: "{{link url name}}\n{{quote body}}", body: "x" },
    { ...EVENT, payload: { url: "https://e.org", name: "Name", body: "a\nb" } },
    BUILT_IN,
  );
  assert.equal(multiLine.title, "Name a b");
});

Deno.test("template: output is capped; huge lists, long values and deep payloads stay bounded", () => {
  const long = "x".repeat(100_000);
  const capped = render("{{a}}{{a}}", { a: long }, 100);
  assert.equal(plain(capped).length, 100);
  assert.ok(plain(capped).endsWith("…"));
  const list = Array.from({ length: 100_000 }, (_, index) => `item-${index}`);
  const joined = plain(render("{{list}}", { list }));
  assert.ok(joined.length <= BODY_OUTPUT_MAX);
  let deep: unknown = "bottom";
  for (let i = 0; i < 50_000; i++) deep = { next: deep };
  assert.equal(text("{{a}}", { a: deep }), '{"next":{"next":{"next":{"next":{…}}}}}');
  assert.equal(text("{{#if a.next.next}}deep{{/if}}", { a: deep }), "deep");
  const message = renderTemplateMessage(
    { body: "{{#each list}}{{this}} and more text {{/each}}" },
    { ...EVENT, payload: { list } },
    BUILT_IN,
  );
  assert.ok(renderDiscord(message).embeds[0].description!.length <= 4096);
  assert.ok(renderTelegram(message).text.length <= 4096);
});

Deno.test("template: a walk over a huge payload runs out of budget with a clear error", () => {
  const payload = { items: Array.from({ length: 200_000 }, (_, index) => ({ id: index })) };
  assert.throws(
    () => renderTemplateMessage({ body: "{{length $..id}}" }, { ...EVENT, payload }, BUILT_IN),
    (error: unknown) => {
      assert.ok(error instanceof TemplateRenderError);
      assert.match(error.message, /^body: step budget exceeded \(more than 100000 steps/);
      return true;
    },
  );
  const nested = "{{#each a}}{{#each b}}{{#each c}}x{{/each}}{{/each}}{{/each}}";
  const wide = Array.from({ length: 100 }, () => ({
    b: Array.from({ length: 100 }, () => ({ c: Array(100).fill(1) })),
  }));
  assert.throws(
    () => renderNodes(parseTemplate(nested), { ...EVENT, payload: { a: wide } }, 10_000_000),
    /step budget exceeded/,
  );
});
