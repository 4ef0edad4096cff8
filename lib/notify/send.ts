/**
 * Sending a personal message to one chat account's private chat (`lib/delivery/private_chat.ts`:
 * Telegram's private chat with the bot, Discord's DM channel, opened once and remembered),
 * through its platform's adapter, each call reserved from the limiter first. A single
 * notification about a pull request or issue carries the channel card's buttons and is recorded
 * like a channel card (`lib/store/delivery/message_refs.ts`), so presses act through the group
 * that received the event, as on the channel card.
 */
import { chatButtonsOf } from "../delivery/render.ts";
import { chatPlatform } from "../delivery/adapters.ts";
import { openPrivateChat } from "../delivery/private_chat.ts";
import type { Message } from "../format/message.ts";
import { actionableSubject, actionsOfEvent } from "../format/subject.ts";
import type { SendResult } from "../platform/send_result.ts";
import { loadEvent } from "../store/delivery/events.ts";
import { readGroupEntry } from "../store/config/group_set.ts";
import { saveMessageRef } from "../store/delivery/message_refs.ts";
import { type HeldNotification, markSent } from "../store/notify/notify_outbox.ts";
import type { ForgeEvent, Platform } from "../types.ts";
import type { NotifyContext } from "./context.ts";
import { digestMessage, singleMessage } from "./message.ts";

function render(
  ctx: NotifyContext,
  platform: Platform,
  message: Message,
  event: ForgeEvent | null,
) {
  const buttons = chatButtonsOf(ctx.config);
  const actions = event ? actionsOfEvent(event) ?? undefined : undefined;
  return chatPlatform(platform).render(message, {
    actions: buttons[platform] ? actions : undefined,
  });
}

/** Records a single notification's message like a channel card, so its buttons work. */
async function recordCard(
  ctx: NotifyContext,
  item: HeldNotification,
  event: ForgeEvent,
  place: { platform: Platform; chatId: string; messageId: string },
) {
  const subject = actionableSubject(event.payload)?.subject;
  if (!subject) return;
  const group = (await readGroupEntry(ctx.kv, item.groupId)).entry;
  await saveMessageRef(ctx.kv, place, {
    ...subject,
    routeId: item.routeId,
    groupId: item.groupId,
    ...(group ? { groupInternalId: group.internalId } : {}),
  });
}

/**
 * Sends `items` to the chat account as one message: the notification itself when there is
 * one, else a digest, and marks them sent (`markSent`). `introduce` adds how to change what
 * the account gets.
 */
export async function sendPersonal(
  ctx: NotifyContext,
  platform: Platform,
  chatUserId: string,
  items: readonly HeldNotification[],
  introduce: boolean,
): Promise<SendResult> {
  const chat = await openPrivateChat(ctx, platform, chatUserId);
  if (chat.kind === "unavailable") {
    return { kind: "rejected", httpStatus: 400, error: `${platform} is not configured` };
  }
  if (chat.kind === "unopened") return chat.result;
  const single = items.length === 1 ? items[0] : null;
  const event = single && single.kind !== "relink" ? await loadEvent(ctx.kv, single.eventId) : null;
  const message = single
    ? singleMessage(single, event, introduce)
    : digestMessage(items, introduce);
  const body = render(ctx, platform, message, event);
  const id = `notify:${platform}:${chatUserId}:${items[0].eventId}`;
  const result = await chat.post(body, id);
  if (result.kind === "sent") {
    await markSent(ctx.kv, platform, chatUserId, items.map((item) => item.eventId));
  }
  if (result.kind === "sent" && result.messageId && single && event) {
    const chatId = chat.adapter.channelOf(chat.target);
    await recordCard(ctx, single, event, { platform, chatId, messageId: result.messageId });
  }
  return result;
}
