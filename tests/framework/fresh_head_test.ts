/** `<Head>`: what a page puts into the document's head while it renders. */
import assert from "node:assert/strict";
import { h } from "preact";
import { NO_ASSETS } from "../../lib/fresh/assets.ts";
import { renderDocument } from "../../lib/fresh/render.ts";
import { Head } from "../../lib/fresh/runtime.ts";

Deno.test("<Head>: a page's title replaces the document's, the last one wins, other tags join the head", () => {
  const Page = () =>
    h(
      "div",
      null,
      h(Head, null, h("title", null, "First")),
      h(Head, null, h("title", null, "Groups · <Switchyard>"), h("meta", { name: "x" })),
    );
  const html = renderDocument(
    h(
      "html",
      null,
      h("head", null, h("title", null, "Switchyard")),
      h("body", null, h(Page, null)),
    ),
    NO_ASSETS,
    new Map(),
  );
  const head = html.slice(0, html.indexOf("</head>"));
  assert.deepEqual([...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]), [
    "Groups · &lt;Switchyard>",
  ]);
  assert.match(head, /<meta name="x"\/?>/);
  assert.match(head, /<title>Groups/);
  assert.doesNotMatch(html.slice(html.indexOf("<body")), /<title|<meta/);
});
