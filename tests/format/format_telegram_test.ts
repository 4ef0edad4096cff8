/** Telegram rendering: layout, HTML escaping, allowed tags and the 4,096 limit. */
import assert from "node:assert/strict";
import { field, line, link, type Message, quote, text } from "../../lib/format/message.ts";
import {
  renderTelegram,
  TELEGRAM_TEXT_LIMIT,
  telegramSendMessage,
} from "../../lib/format/telegram.ts";
import { assertTelegramHtml, format } from "../_format_helpers.ts";
import { fixtureJson } from "../_ingest_helpers.ts";

Deno.test("a formatted pull request: dot, linked title, author, quote, fields, footer", async () => {
  const message = format("pull_request", await fixtureJson("pull_request/opened.payload.json"));
  const body = renderTelegram(message);
  assert.equal(body.parse_mode, "HTML");
  assert.deepEqual(body.link_preview_options, { is_disabled: true });
  const lines = body.text.split("\n");
  assert.equal(
    lines[0],
    '🟢 <b><a href="https://github.com/Codertocat/Hello-World/pull/2">' +
      "[Codertocat/Hello-World] Pull request opened: #2 Update the README with new information.</a></b>",
  );
  assert.equal(lines[1], 'by <a href="https://github.com/Codertocat">Codertocat</a>');
  assert.equal(
    lines[3],
    "<blockquote>This is a pretty simple change that we need to pull into master.</blockquote>",
  );
  assert.ok(lines.includes("<b>Labels:</b> <code>bug</code>"));
  assert.equal(lines.at(-1), "<i>Codertocat/Hello-World · GitHub</i>");
  assertTelegramHtml(body.text);
});

Deno.test("hostile text is escaped everywhere: title, author, description, fields, footer", () => {
  const hostile = '</b><script>alert("x")</script> & <a href="javascript:1">';
  const body = renderTelegram({
    title: hostile,
    url: "https://e.x/?a=1&b=2",
    author: { name: hostile, url: "https://e.x/u" },
    description: [line(text(hostile)), quote(hostile), line(link(hostile, "https://e.x/"))],
    fields: [field(hostile, text(hostile))],
    footer: { repository: hostile, provider: "custom" },
  });
  assertTelegramHtml(body.text);
  assert.ok(body.text.includes('<a href="https://e.x/?a=1&amp;b=2">'));
  assert.ok(
    body.text.includes('&lt;/b&gt;&lt;script&gt;alert("x")&lt;/script&gt; &amp; &lt;a href='),
  );
  assert.ok(!body.text.includes("<script>"));
  assert.ok(!body.text.includes('javascript:1">'));
});

Deno.test("a message with only a title is just the title", () => {
  assert.equal(renderTelegram({ title: "a < b" }).text, "<b>a &lt; b</b>");
});

Deno.test("long content is cut to 4,096 while the title and footer stay", () => {
  const message: Message = {
    title: "Title",
    color: 0x123456,
    description: [line(text("<&> ".repeat(3000)))],
    fields: Array.from({ length: 40 }, (_, index) => field(`F${index}`, text("x".repeat(500)))),
    footer: { repository: "o/r", provider: "github" },
  };
  const body = renderTelegram(message);
  assert.ok(body.text.length <= TELEGRAM_TEXT_LIMIT, `length ${body.text.length}`);
  assert.ok(body.text.startsWith("<b>Title</b>"));
  assert.ok(body.text.endsWith("<i>o/r · GitHub</i>"));
  assert.ok(body.text.includes("…"));
  assertTelegramHtml(body.text);
});

Deno.test("every size of quote-heavy content stays valid HTML within the limit", () => {
  for (const size of [100, 1000, 4000, 4090, 4100, 9000]) {
    const body = renderTelegram({
      title: "😀".repeat(300),
      url: "https://e.x/",
      description: [quote("&".repeat(size)), line(link("🎉".repeat(size), "https://e.x/l"))],
      footer: { provider: "gitea" },
    });
    assert.ok(body.text.length <= TELEGRAM_TEXT_LIMIT);
    assertTelegramHtml(body.text);
  }
});

Deno.test("a pathologically long link in the title is still cut to a valid message", () => {
  const body = renderTelegram({
    title: "t",
    url: `https://e.x/?${"a=1&".repeat(500)}`,
    author: { name: "n", url: `https://e.x/?${"b=2&".repeat(500)}` },
    description: [line(text("d".repeat(4000)))],
  });
  assert.ok(body.text.length <= TELEGRAM_TEXT_LIMIT);
  assertTelegramHtml(body.text);
});

Deno.test("sendMessage parameters carry the topic as message_thread_id", () => {
  const message: Message = { title: "t" };
  assert.deepEqual(telegramSendMessage({ platform: "telegram", chatId: "-100123" }, message), {
    chat_id: "-100123",
    text: "<b>t</b>",
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
  });
  const inTopic = telegramSendMessage(
    { platform: "telegram", chatId: "-100123", topicId: 42 },
    message,
  );
  assert.equal(inTopic.message_thread_id, 42);
});
