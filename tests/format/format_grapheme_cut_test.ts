/**
 * Cuts to a platform's limit fall between grapheme clusters: a family emoji (a ZWJ sequence),
 * a flag (two regional indicators) or a letter with a combining accent is kept whole or
 * dropped whole, for every offset of the cut around the limit and every cutter.
 */
import assert from "node:assert/strict";
import { DISCORD_LIMITS, renderDiscord, renderMarkdown } from "../../lib/format/discord.ts";
import { field, line, text } from "../../lib/format/message.ts";
import { renderTelegram, TELEGRAM_TEXT_LIMIT } from "../../lib/format/telegram.ts";
import { clusterStart } from "../../lib/format/grapheme.ts";
import { ELLIPSIS, truncate } from "../../lib/format/text.ts";
import { truncateHtml } from "../../lib/format/truncate_html.ts";
import { assertTelegramHtml } from "../_format_helpers.ts";

const FAMILY = "👨‍👩‍👧‍👦";
const FLAGS = ["🇩🇪", "🇫🇷", "🇯🇵"];
const ACCENTED = "e\u0301";
/** Clusters of several code points each, of different lengths (11, 4, 4, 4 and 2 units). */
const CLUSTERS = [FAMILY, ...FLAGS, ACCENTED];
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function clustersOf(value: string): string[] {
  return Array.from(segmenter.segment(value), (part) => part.segment);
}

/** `count` multi-code-point clusters after `pad` plain letters. */
function sample(pad: number, count: number): string {
  return "x".repeat(pad) + Array.from({ length: count }, (_, i) => CLUSTERS[i % 5]).join("");
}

/** Fails unless `cut`, without its final `…`, is whole clusters of `original` from its start. */
function assertClusterPrefix(cut: string, original: string, label: string): void {
  assert.ok(cut.endsWith(ELLIPSIS), `${label}: ends with … (${cut.slice(-20)})`);
  const kept = clustersOf(cut.slice(0, -ELLIPSIS.length));
  assert.deepEqual(kept, clustersOf(original).slice(0, kept.length), `${label}: ${cut.slice(-20)}`);
}

/** Fails unless every cluster of `value` (tags left out) is whole: a sample's or plain text. */
function assertWholeClusters(value: string, label: string): void {
  const shown = value.replaceAll(/<[^<>]*>/g, "");
  for (const cluster of clustersOf(shown)) {
    const whole = CLUSTERS.includes(cluster) || /^[\x20-\x7e\n·…]$/.test(cluster);
    assert.ok(
      whole,
      `${label}: partial cluster ${JSON.stringify(cluster)} in …${shown.slice(-30)}`,
    );
  }
}

Deno.test("truncate: every cut of family emoji, flags and accents keeps whole clusters", () => {
  for (let pad = 0; pad < 12; pad++) {
    const value = sample(pad, 40);
    for (let max = 1; max < value.length; max++) {
      const cut = truncate(value, max);
      assert.ok(cut.length <= max, `pad ${pad}, max ${max}: ${cut.length} units`);
      assertClusterPrefix(cut, value, `pad ${pad}, max ${max}`);
    }
  }
});

Deno.test("Discord: title, field value and description cuts keep whole clusters at every offset", () => {
  for (let pad = 0; pad < 12; pad++) {
    const title = sample(pad, 80);
    const embed = renderDiscord({
      title,
      description: [line(text(sample(pad, 1000)))],
      fields: [field("f", text(sample(pad, 300)))],
    }).embeds[0];
    assert.ok(embed.title!.length <= DISCORD_LIMITS.title);
    assertClusterPrefix(embed.title!, title, `title, pad ${pad}`);
    const value = embed.fields![0].value;
    assert.ok(value.length <= DISCORD_LIMITS.fieldValue);
    assertClusterPrefix(value, sample(pad, 300), `field value, pad ${pad}`);
    assert.ok(embed.description!.length <= DISCORD_LIMITS.description);
    assertClusterPrefix(embed.description!, sample(pad, 1000), `description, pad ${pad}`);
  }
  for (let max = 1; max < 80; max++) {
    const description = sample(3, 20);
    const cut = renderMarkdown([line(text(description))], max);
    assert.ok(cut.length <= max, `renderMarkdown max ${max}`);
    assertClusterPrefix(cut, description, `renderMarkdown max ${max}`);
  }
});

Deno.test("Discord: a description cut to the embed total of 6,000 keeps whole clusters", () => {
  for (let pad = 0; pad < 12; pad++) {
    const fields = Array.from({ length: 3 }, (_, i) => field(`f${i}`, text("y".repeat(1000))));
    const description = sample(pad, 600);
    const embed = renderDiscord({
      title: "t".repeat(250 + pad),
      description: [line(text(description))],
      fields,
    }).embeds[0];
    const total = embed.title!.length + embed.description!.length +
      embed.fields!.reduce((sum, item) => sum + item.name.length + item.value.length, 0);
    assert.ok(total <= DISCORD_LIMITS.total, `pad ${pad}: total ${total}`);
    assert.ok(embed.description!.length < DISCORD_LIMITS.description, "the total binds");
    assertClusterPrefix(embed.description!, description, `pad ${pad}`);
  }
});

Deno.test("truncateHtml: every cut of clusters inside an element keeps whole clusters", () => {
  for (let pad = 0; pad < 12; pad++) {
    const inner = sample(pad, 30);
    const html = `<b>${inner}</b> <i>${sample(pad, 5)}</i>`;
    for (let max = 1; max < html.length; max++) {
      const cut = truncateHtml(html, max);
      assert.ok(cut.length <= max, `pad ${pad}, max ${max}: ${cut.length} units`);
      if (cut === "") continue;
      assertTelegramHtml(cut);
      assertWholeClusters(cut, `pad ${pad}, max ${max}`);
    }
  }
});

Deno.test("Telegram: a message cut to 4,096 keeps whole clusters at every offset", () => {
  for (let pad = 0; pad < 12; pad++) {
    const body = renderTelegram({
      title: "Title",
      description: [line(text(sample(pad, 900)))],
      footer: { provider: "github" },
    });
    assert.ok(body.text.length <= TELEGRAM_TEXT_LIMIT, `pad ${pad}: ${body.text.length}`);
    assert.ok(body.text.includes(ELLIPSIS));
    assertTelegramHtml(body.text);
    assertWholeClusters(body.text, `pad ${pad}`);
  }
});

Deno.test("clusterStart agrees with segmenting the whole text at every offset", () => {
  const value = [
    "ab\r\ncd ",
    "🇩🇪".repeat(7) + "x" + "🇫🇷🇯🇵",
    FAMILY + "👍🏽" + "#\uFE0F\u20E3",
    "\u1100\u1161\u11A8 한\u11A8",
    "\u0915\u094D\u0937 ",
    "z" + "\u0301".repeat(100) + "!",
    "\u0600" + "12 e\u0301\n\u200D" + FAMILY,
  ].join("");
  const starts = new Set(Array.from(segmenter.segment(value), (part) => part.index));
  let current = 0;
  for (let offset = 0; offset <= value.length; offset++) {
    if (starts.has(offset) || offset === value.length) current = offset;
    assert.equal(clusterStart(value, offset), current, `offset ${offset}`);
  }
});
