/**
 * Which notification a reply or a button press is about: the message's record (chat id and
 * message id, kept for 30 days after delivery), read under the chat's numeric id or, for a
 * chat routes name by `@username`, under that name.
 */
import type { Kv } from "../../store/backend/types.ts";
import {
  getMessageRef,
  isIssueSubject,
  type MessageRef,
} from "../../store/delivery/message_refs.ts";
import type { ChatPlace } from "../authorize.ts";
import type { IssueRef } from "../../format/issue_ref.ts";
import { refOf } from "../../format/issue_ref.ts";

/** The chat part of a message, as an update carries it. */
export interface ChatOfMessage {
  id: number;
  username?: string;
}

/** The record of the bot's message `messageId` in `chat`, or null. */
export async function findNotification(
  kv: Kv,
  chat: ChatOfMessage,
  messageId: number,
): Promise<MessageRef | null> {
  const place = { platform: "telegram" as const, messageId: String(messageId) };
  const byId = await getMessageRef(kv, { ...place, chatId: String(chat.id) });
  if (byId || !chat.username) return byId;
  return await getMessageRef(kv, { ...place, chatId: `@${chat.username}` });
}

/**
 * Where a message acts from, for `chatActionRefusal`: the chat by its id and, when it has one,
 * its `@username` (routes may name it either way; notifications are recorded under that name).
 */
export function telegramPlace(chat: ChatOfMessage): ChatPlace {
  const ids = [String(chat.id), ...(chat.username ? [`@${chat.username}`] : [])];
  return {
    platform: "telegram",
    chats: ids.map((chatId) => ({ platform: "telegram" as const, chatId })),
    recordedIn: ids,
  };
}

/**
 * The pull request or issue a record is about, or null when it is about something else (a
 * workflow run) or its repository is malformed.
 */
export function issueRefOf(ref: MessageRef): IssueRef | null {
  const { subject } = ref;
  return isIssueSubject(subject) ? refOf(subject.repository, subject.number, subject.kind) : null;
}

/**
 * Said when a message sent less than 30 days ago is not a notification the bot may act on: its
 * group is not bound to its repository.
 */
export const UNBOUND_NOTIFICATION =
  "I do not act on that notification: its repository is not one the group that sent it is " +
  "bound to (the group's GitHub App installation or owners).";

/** Said when a message is not a notification the bot remembers. */
export const UNKNOWN_NOTIFICATION =
  "I do not know what that message is about: reply to a pull request or issue notification " +
  "(they can be acted on for 30 days).";
