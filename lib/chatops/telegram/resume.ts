/**
 * `/gh resume` in a Telegram chat: the sender (a person, not an anonymous admin) must be linked
 * to a GitHub account that owns or administers the group paused here; `lib/chatops/resume.ts`
 * does the rest. In a forum topic it covers the topic and the chat.
 */
import { getTelegramLink } from "../../store/auth/links.ts";
import { targetKeyOf } from "../../store/delivery/target_health.ts";
import { notLinkedText } from "../act.ts";
import { resumeFromChat } from "../resume.ts";
import { reply } from "./account.ts";
import type { TelegramChatContext } from "./context.ts";
import { isPrivate } from "./place.ts";
import { LINK_COMMAND } from "./replies.ts";
import type { IncomingMessage } from "./update.ts";

/** The health keys of the place a message was written in: its topic (if any), then its chat. */
function placeKeys(message: IncomingMessage): string[] {
  const chatId = String(message.chat.id);
  const chat = targetKeyOf({ platform: "telegram", chatId });
  const topicId = message.is_topic_message ? message.message_thread_id : undefined;
  return topicId === undefined
    ? [chat]
    : [targetKeyOf({ platform: "telegram", chatId, topicId }), chat];
}

/** Runs `/gh resume` and answers in the chat. */
export async function resumeCommand(
  ctx: TelegramChatContext,
  message: IncomingMessage,
): Promise<void> {
  if (isPrivate(message)) {
    return await reply(ctx, message, "Send /gh resume in the chat that is paused.");
  }
  const from = message.from;
  if (!from || from.is_bot) {
    return await reply(ctx, message, "Only a person can resume a chat; send it as yourself.");
  }
  const link = await getTelegramLink(ctx.kv, String(from.id));
  if (!link) return await reply(ctx, message, notLinkedText(LINK_COMMAND));
  const result = await resumeFromChat(
    ctx.kv,
    { userId: link.userId, login: link.login },
    {
      chat: { platform: "telegram", chatId: String(message.chat.id) },
      targetKeys: placeKeys(message),
      name: "this chat",
    },
  );
  await reply(ctx, message, result.text);
}
