/** `truncateHtml`: cuts Telegram HTML without breaking tags, entities or surrogate pairs. */
import assert from "node:assert/strict";
import { truncateHtml } from "../../lib/format/truncate_html.ts";
import { assertTelegramHtml } from "../_format_helpers.ts";

Deno.test("HTML within the limit is returned unchanged", () => {
  const html = "<b>bold</b> &amp; <i>it</i>";
  assert.equal(truncateHtml(html, html.length), html);
});

Deno.test("a cut inside an element keeps room for … and the closing tag", () => {
  assert.equal(truncateHtml("<b>hello world</b>", 10), "<b>he…</b>");
  assert.equal(truncateHtml("<b><i>hello</i> world</b>", 16), "<b><i>h…</i></b>");
  assert.equal(truncateHtml("plain text here", 6), "plain…");
});

Deno.test("an entity is kept whole or dropped whole", () => {
  assert.equal(truncateHtml("a &amp; b &lt; c", 8), "a &amp;…");
  assert.equal(truncateHtml("a &amp; b &lt; c", 7), "a…");
  assert.equal(truncateHtml("a &amp; b &lt; c", 6), "a…");
});

Deno.test("a tag is never cut; an element that would be empty is dropped", () => {
  const html = 'text <a href="https://e.x/?a=1&amp;b=2">link</a> more';
  assert.equal(truncateHtml(html, 20), "text…");
  assert.equal(
    truncateHtml(html, 47),
    'text <a href="https://e.x/?a=1&amp;b=2">li…</a>',
  );
});

Deno.test("surrogate pairs are never split", () => {
  const result = truncateHtml("😀😀😀😀", 6);
  assert.equal(result, "😀😀…");
});

Deno.test("no room even for … gives an empty string", () => {
  assert.equal(truncateHtml("<b>x</b>yz", 0), "");
});

Deno.test("every cut of a rich sample is valid Telegram HTML within the limit", () => {
  const html = '🟢 <b><a href="https://e.x/?q=1&amp;r=&quot;2&quot;">T &lt;1&gt;</a></b>\n' +
    "<blockquote>quoted &amp; 🎉 text</blockquote>\n<b>Field:</b> <code>a&lt;b</code> " +
    '<i>it</i> <a href="https://e.x/">l</a> &#128512; end';
  for (let max = 0; max <= html.length; max++) {
    const result = truncateHtml(html, max);
    assert.ok(result.length <= max, `max ${max}: ${result}`);
    if (result) assertTelegramHtml(result);
    if (max < html.length && result) assert.ok(result.includes("…"), `max ${max}: ${result}`);
  }
});
