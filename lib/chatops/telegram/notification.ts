/**
 * Which notification a reply or a button press is about: the message's record (chat id and
 * message id, kept for 30 days after delivery), read under the chat's numeric id or, for a
 * chat routes name by `@username`, under that name.
 */
import { getMessageRef, type MessageRef } from "../../store/message_refs.ts";
import type { IssueRef } from "../ref.ts";
import { refOf } from "../ref.ts";

/** The chat part of a message, as an update carries it. */
export interface ChatOfMessage {
  id: number;
  username?: string;
}

/** The record of the bot's message `messageId` in `chat`, or null. */
export async function findNotification(
  kv: Deno.Kv,
  chat: ChatOfMessage,
  messageId: number,
): Promise<MessageRef | null> {
  const place = { platform: "telegram" as const, messageId: String(messageId) };
  const byId = await getMessageRef(kv, { ...place, chatId: String(chat.id) });
  if (byId || !chat.username) return byId;
  return await getMessageRef(kv, { ...place, chatId: `@${chat.username}` });
}

/** The pull request or issue a record is about, or null when its repository is malformed. */
export function issueRefOf(ref: MessageRef): IssueRef | null {
  return refOf(ref.subject.repository, ref.subject.number, ref.subject.kind);
}

/** Said when a message is not a notification the bot remembers. */
export const UNKNOWN_NOTIFICATION =
  "I do not know what that message is about: reply to a pull request or issue notification " +
  "(they can be acted on for 30 days).";
