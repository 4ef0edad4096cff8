/**
 * Sending a personal message to one chat account through its platform's adapter, each call
 * reserved from the limiter first (`lib/delivery/chat_calls.ts`): Telegram's private chat with
 * the bot (its chat id is the user's id), Discord's DM channel, opened once and remembered. A
 * single notification about a pull request or issue carries the channel card's buttons and is
 * recorded like a channel card (`lib/store/delivery/message_refs.ts`), so presses act through the group
 * that received the event, as on the channel card.
 */
import { chatCalls } from "../delivery/chat_calls.ts";
import { chatButtonsOf } from "../delivery/render.ts";
import { chatPlatform } from "../delivery/adapters.ts";
import type { Message } from "../format/message.ts";
import { actionableSubject, actionsOfEvent } from "../format/subject.ts";
import type { RememberedChats } from "../platform/adapter.ts";
import type { SendResult } from "../platform/send_result.ts";
import { loadEvent } from "../store/delivery/events.ts";
import { readGroupEntry } from "../store/config/group_set.ts";
import { saveMessageRef } from "../store/delivery/message_refs.ts";
import { getDmChannel, saveDmChannel } from "../store/notify/notify_cache.ts";
import { type HeldNotification, markSent } from "../store/notify/notify_outbox.ts";
import type { ForgeEvent, Platform } from "../types.ts";
import type { NotifyContext } from "./context.ts";
import { digestMessage, singleMessage } from "./message.ts";

/** The DM channels opened with chat accounts, kept between notifications. */
function dmChannels(ctx: NotifyContext): RememberedChats {
  return {
    get: (userId) => getDmChannel(ctx.kv, userId),
    save: (userId, channelId) => saveDmChannel(ctx.kv, userId, channelId),
  };
}

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
  const adapter = ctx.adapters.get(platform);
  if (!adapter || adapter.unavailable()) {
    return { kind: "rejected", httpStatus: 400, error: `${platform} is not configured` };
  }
  const target = await adapter.directTarget(chatUserId, ctx, dmChannels(ctx));
  if (!("platform" in target)) return target;
  const single = items.length === 1 ? items[0] : null;
  const event = single && single.kind !== "relink" ? await loadEvent(ctx.kv, single.eventId) : null;
  const message = single
    ? singleMessage(single, event, introduce)
    : digestMessage(items, introduce);
  const body = render(ctx, platform, message, event);
  const calls = chatCalls(ctx, adapter, false);
  const id = `notify:${platform}:${chatUserId}:${items[0].eventId}`;
  const result = await calls.post(target, body, id);
  if (result.kind === "sent") {
    await markSent(ctx.kv, platform, chatUserId, items.map((item) => item.eventId));
  }
  if (result.kind === "sent" && result.messageId && single && event) {
    const chatId = adapter.channelOf(target);
    await recordCard(ctx, single, event, { platform, chatId, messageId: result.messageId });
  }
  return result;
}
