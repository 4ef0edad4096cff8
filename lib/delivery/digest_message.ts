/** The message a digest shows: how many events it gathered and links to the first of them. */
import type { Block, Message } from "../format/message.ts";
import type { DigestRecord } from "../store/delivery/digests.ts";
import { chatPlatform } from "./adapters.ts";

const TITLE_CHARS = 200;

function titleOf(digest: DigestRecord): string {
  const events = digest.count === 1 ? "1 event" : `${digest.count} events`;
  const route = digest.routeName.slice(0, TITLE_CHARS);
  if (digest.kind === "quiet") return `${events} during quiet hours: ${route}`;
  return digest.closed ? `${events} more: ${route}` : `${events} more so far: ${route}`;
}

/** The neutral message of a digest in its current state. */
export function digestMessage(digest: DigestRecord): Message {
  const lines: Block[] = digest.items.map((item) => ({
    kind: "line",
    spans: [
      { kind: "text", text: "• " },
      item.url
        ? { kind: "link", text: item.title, url: item.url }
        : { kind: "text", text: item.title },
    ],
  }));
  const unlisted = digest.count - digest.items.length;
  if (unlisted > 0) {
    lines.push({
      kind: "line",
      spans: [{ kind: "italic", text: `and ${unlisted} more (all are in the events view)` }],
    });
  }
  if (digest.closed && digest.kind === "burst") {
    lines.push({ kind: "line", spans: [{ kind: "italic", text: "Digest closed." }] });
  }
  return { title: titleOf(digest), description: lines };
}

/** The digest rendered for its target's platform (no pings, no buttons). */
export function renderDigest(digest: DigestRecord): unknown {
  return chatPlatform(digest.target.platform).render(digestMessage(digest));
}
