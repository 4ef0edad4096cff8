/**
 * Helpers for the formatting tests (no tests of its own): events from payloads
 * (the GitHub fixtures come through `fixtureJson` of tests/_ingest_helpers.ts),
 * readers for the neutral message, and a checker for the HTML Telegram accepts.
 */
import assert from "node:assert/strict";
import { formatEvent } from "../lib/format/mod.ts";
import type { Block, Message, MessageField, Span } from "../lib/format/message.ts";
import type { ForgeEvent, Provider } from "../lib/types.ts";

/** A JSON payload. */
export type Payload = Record<string, unknown>;

/** The receive time every test event carries. */
export const RECEIVED_AT = Date.UTC(2024, 4, 1, 12, 0, 0);

/** An accepted event with the payload's `action`. */
export function eventOf(kind: string, payload: Payload, provider: Provider = "github"): ForgeEvent {
  return {
    id: "01TEST",
    provider,
    kind,
    action: typeof payload.action === "string" ? payload.action : undefined,
    scope: { type: "global" },
    receivedAt: RECEIVED_AT,
    headers: {},
    payload,
  };
}

/** The message for an event, failing the test when there is none. */
export function format(kind: string, payload: Payload, provider: Provider = "github"): Message {
  const message = formatEvent(eventOf(kind, payload, provider));
  assert.ok(message, `${kind} produced no message`);
  return message;
}

/** The visible text of spans. */
export function spansText(spans: Span[]): string {
  return spans.map((span) => span.text).join("");
}

/** The visible text of a block. */
export function blockText(block: Block): string {
  return block.kind === "quote" ? block.text : spansText(block.spans);
}

/** The visible text of a message's description, one line per block. */
export function descriptionText(message: Message): string {
  return (message.description ?? []).map(blockText).join("\n");
}

/** The field with that name, failing the test when there is none. */
export function fieldOf(message: Message, name: string): MessageField {
  const found = message.fields?.find((item) => item.name === name);
  assert.ok(found, `no field ${name} in ${message.fields?.map((item) => item.name)}`);
  return found;
}

/** The visible text of a field. */
export function fieldText(message: Message, name: string): string {
  return spansText(fieldOf(message, name).value);
}

/** The link targets among spans. */
export function linksIn(spans: Span[]): string[] {
  return spans.flatMap((span) => span.kind === "link" ? [span.url] : []);
}

/** True when a string holds a lone (split) surrogate. */
export function hasLoneSurrogate(value: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
}

const TELEGRAM_TAGS = new Set(["b", "i", "u", "s", "code", "pre", "a", "blockquote"]);

/**
 * Fails unless the text is HTML Telegram accepts: only allowed tags, properly
 * nested and closed, every `&` starting one of the entities Telegram knows, no
 * stray `<` or `>`, and no split surrogate.
 */
export function assertTelegramHtml(html: string): void {
  const open: string[] = [];
  for (const match of html.matchAll(/<(\/?)([a-z-]+)((?:\s[^<>]*)?)>/g)) {
    const [, closing, name] = match;
    assert.ok(TELEGRAM_TAGS.has(name), `tag <${name}> in ${html}`);
    if (closing) assert.equal(open.pop(), name, `misnested </${name}> in ${html}`);
    else open.push(name);
  }
  assert.deepEqual(open, [], `unclosed tags in ${html}`);
  const text = html.replaceAll(/<\/?[a-z-]+(?:\s[^<>]*)?>/g, "");
  assert.doesNotMatch(text, /[<>]/, `stray angle bracket in ${html}`);
  for (const match of text.matchAll(/&[^;]{0,10};?/g)) {
    assert.match(match[0], /^&(amp|lt|gt|quot|#\d+|#x[0-9a-f]+);$/i, `bad entity in ${html}`);
  }
  assert.ok(!hasLoneSurrogate(html), "split surrogate pair");
}
