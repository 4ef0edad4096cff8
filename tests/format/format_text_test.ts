/** Text helpers: truncation, escaping, URLs and git naming. */
import assert from "node:assert/strict";
import { parseColor } from "../../lib/format/colors.ts";
import {
  cleanBody,
  cutRendered,
  duration,
  escapeHtml,
  escapeHtmlAttribute,
  escapeMarkdown,
  firstLine,
  humanize,
  isZeroSha,
  parseRef,
  plural,
  safeUrl,
  shortSha,
  truncate,
} from "../../lib/format/text.ts";

Deno.test("truncate keeps short text, cuts long text with … and trims spaces before it", () => {
  assert.equal(truncate("short", 5), "short");
  assert.equal(truncate("hello world", 8), "hello w…");
  assert.equal(truncate("hello world", 7), "hello…");
  assert.equal(truncate("abc", 0), "");
  assert.equal(truncate("a😀b", 3), "a…");
  assert.equal(truncate("😀😀😀", 5), "😀😀…");
});

Deno.test("cutRendered fits the rendered form, not the raw text", () => {
  assert.equal(cutRendered("a&b&c&d", 10, escapeHtml), "a&amp;b…");
  assert.equal(cutRendered("abc", 0, (value) => value), "");
});

Deno.test("escapeHtml and escapeHtmlAttribute", () => {
  assert.equal(escapeHtml(`<b>"x" & 'y'</b>`), `&lt;b&gt;"x" &amp; 'y'&lt;/b&gt;`);
  assert.equal(escapeHtmlAttribute(`a"b&c`), "a&quot;b&amp;c");
});

Deno.test("escapeMarkdown: inline markers anywhere, block markers only at a line start", () => {
  assert.equal(
    escapeMarkdown("a*b_c~d`e|f[g](h)<i>\\"),
    "a\\*b\\_c\\~d\\`e\\|f\\[g\\]\\(h\\)\\<i\\>\\\\",
  );
  assert.equal(
    escapeMarkdown("# h\n## h2\n-# sub\n- item\n+ item\n 12. n"),
    "\\# h\n\\## h2\n\\-# sub\n\\- item\n\\+ item\n 12\\. n",
  );
  assert.equal(escapeMarkdown("C# and a-b, 1.5 and #tag"), "C# and a-b, 1.5 and #tag");
});

Deno.test("safeUrl accepts only absolute http(s) URLs of sane length", () => {
  assert.equal(safeUrl("https://github.com/o/r"), "https://github.com/o/r");
  assert.equal(safeUrl("http://localhost:3000/x y"), "http://localhost:3000/x%20y");
  assert.equal(safeUrl("javascript:alert(1)"), undefined);
  assert.equal(safeUrl("tg://user?id=1"), undefined);
  assert.equal(safeUrl("/relative"), undefined);
  assert.equal(safeUrl(""), undefined);
  assert.equal(safeUrl(42), undefined);
  assert.equal(safeUrl(`https://e.x/${"a".repeat(3000)}`), undefined);
});

Deno.test("git naming: refs, SHAs, zero SHAs", () => {
  assert.deepEqual(parseRef("refs/heads/main"), { type: "branch", name: "main" });
  assert.deepEqual(parseRef("refs/heads/feature/x"), { type: "branch", name: "feature/x" });
  assert.deepEqual(parseRef("refs/tags/v1"), { type: "tag", name: "v1" });
  assert.deepEqual(parseRef("refs/pull/1/merge"), { type: "ref", name: "refs/pull/1/merge" });
  assert.equal(shortSha("6113728f27ae82c7b1a177c8d03f9e96e0adf246"), "6113728");
  assert.ok(isZeroSha("0000000000000000000000000000000000000000"));
  assert.ok(!isZeroSha("0000000000000000000000000000000000000001"));
  assert.ok(!isZeroSha(undefined));
});

Deno.test("words: plural, humanize, firstLine, cleanBody, duration", () => {
  assert.equal(plural(1, "commit"), "1 commit");
  assert.equal(plural(3, "commit"), "3 commits");
  assert.equal(humanize("ready_for_review"), "ready for review");
  assert.equal(firstLine("\n  Subject line  \r\nbody"), "Subject line");
  assert.equal(cleanBody("a\r\n\r\n\r\n\r\nb<!-- hidden -->\n<!-- open"), "a\n\nb");
  assert.equal(duration("2021-08-05T10:34:58Z", "2021-08-05T10:38:16Z"), "3m 18s");
  assert.equal(duration("2021-08-05T10:00:00Z", "2021-08-05T12:05:00Z"), "2h 5m");
  assert.equal(duration("2021-08-05T10:00:00Z", "2021-08-05T09:00:00Z"), undefined);
  assert.equal(duration(null, "2021-08-05T09:00:00Z"), undefined);
});

Deno.test("parseColor: names, hex with or without #, numbers in range", () => {
  assert.equal(parseColor("#ff0000"), 0xff0000);
  assert.equal(parseColor("00ff00"), 0x00ff00);
  assert.equal(parseColor(" Purple "), parseColor("purple"));
  assert.equal(parseColor("nope"), undefined);
  assert.equal(parseColor(1.5), undefined);
});
