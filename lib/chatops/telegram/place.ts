/** Where an answer to a message goes: the same chat, the same forum topic, as a reply. */
import type { ReplyPlace } from "./bot.ts";
import type { IncomingMessage } from "./update.ts";

/**
 * The place that answers `message`: its chat, its topic when it was written in a forum
 * topic (other chats ignore a thread id, or refuse it), replying to it.
 */
export function answerPlace(message: IncomingMessage): ReplyPlace {
  return {
    chatId: message.chat.id,
    ...(message.is_topic_message && message.message_thread_id !== undefined
      ? { threadId: message.message_thread_id }
      : {}),
    replyTo: message.message_id,
  };
}

/** Whether a chat is a private chat with one user. */
export function isPrivate(message: IncomingMessage): boolean {
  return message.chat.type === "private";
}
