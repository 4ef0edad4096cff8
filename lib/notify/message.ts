/**
 * The text of a personal message: one notification (the event's own card, headed by why the
 * person gets it, with the channel card's buttons), a digest of several (one line each), or
 * the notice to link again. The first message a chat account gets says how to change what it
 * gets.
 */
import { RELINK_TEXT } from "../auth/person_access.ts";
import type { Block, Message, Span } from "../format/message.ts";
import { formatEvent } from "../format/mod.ts";
import type { HeldNotification } from "../store/notify/notify_outbox.ts";
import type { ForgeEvent } from "../types.ts";

/** Said once, in the first personal message of a chat account. */
const HOW_TO_CHANGE =
  "You get review requests and mentions here now that your account is linked. Send /gh notify " +
  "in this private chat (Telegram), or use the console's account page, to choose what you get, " +
  "pause it or set quiet hours.";

function line(...spans: Span[]): Block {
  return { kind: "line", spans };
}

function withIntro(message: Message, introduce: boolean): Message {
  if (!introduce) return message;
  return {
    ...message,
    description: [
      ...(message.description ?? []),
      line({ kind: "italic", text: HOW_TO_CHANGE }),
    ],
  };
}

/** One notification: the event's card headed by the reason (null when it has no card). */
export function singleMessage(
  item: HeldNotification,
  event: ForgeEvent | null,
  introduce: boolean,
): Message {
  if (item.kind === "relink") {
    return withIntro({
      title: "Link your GitHub account again",
      description: [line({ kind: "text", text: RELINK_TEXT })],
    }, false);
  }
  const card = (event && formatEvent(event)) ?? { title: item.title, url: item.url };
  return withIntro({
    ...card,
    mentions: undefined,
    description: [
      line({ kind: "bold", text: `${item.reason}:` }),
      ...(card.description ?? []),
    ],
  }, introduce);
}

/** Several notifications as one digest: a line each, oldest first. */
export function digestMessage(items: readonly HeldNotification[], introduce: boolean): Message {
  const lines: Block[] = items.map((item) =>
    item.kind === "relink" ? line({ kind: "text", text: RELINK_TEXT }) : line(
      { kind: "bold", text: `${item.reason}: ` },
      item.url
        ? { kind: "link", text: item.title, url: item.url }
        : { kind: "text", text: item.title },
      { kind: "text", text: ` (${item.repository})` },
    )
  );
  return withIntro({ title: `${items.length} notifications`, description: lines }, introduce);
}
