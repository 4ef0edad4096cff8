/**
 * `/gh issue <owner/repo> <title>` on Telegram: opens the issue as the sender's linked GitHub
 * account. Sent as a reply, the replied-to message becomes the body, with a link back to it
 * (a chat with a public `@name`, or a supergroup, has message links). The command first passes
 * `chatActionRefusal` for the repository (its binding to the groups whose routes post here).
 */
import { getTelegramLink } from "../../store/auth/links.ts";
import { chatActionRefusal } from "../authorize.ts";
import { createIssueAsLinkedUser, parseRepository } from "../create_issue.ts";
import { reply } from "./account.ts";
import type { ChatCommand } from "./command.ts";
import type { TelegramChatContext } from "./context.ts";
import { telegramPlace } from "./notification.ts";
import { LINK_COMMAND } from "./replies.ts";
import type { IncomingMessage } from "./update.ts";

const USAGE = "Open an issue with /gh issue owner/repo Title (as a reply, the message replied to " +
  "becomes its body).";

/** Supergroup and channel ids: `-100` and the id their message links use. */
const SUPERGROUP = /^-100(\d{1,15})$/;
const USERNAME = /^[A-Za-z0-9_]{4,64}$/;

/** The address of message `messageId` of the chat, when Telegram has one. */
function telegramMessageLink(
  chat: { id: number; username?: string },
  messageId: number,
): string | null {
  if (chat.username && USERNAME.test(chat.username)) {
    return `https://t.me/${chat.username}/${messageId}`;
  }
  const supergroup = SUPERGROUP.exec(String(chat.id));
  return supergroup ? `https://t.me/c/${supergroup[1]}/${messageId}` : null;
}

/** The issue body from the message replied to: its text, and a link back to it. */
function bodyOf(message: IncomingMessage): string {
  const quoted = message.reply_to_message;
  if (!quoted) return "";
  const text = (quoted.text ?? quoted.caption ?? "").trim();
  const link = telegramMessageLink(message.chat, quoted.message_id);
  const source = link ? `From Telegram: ${link}` : "From a Telegram chat.";
  return text ? `${text}\n\n${source}` : source;
}

/** Runs `/gh issue` and answers in the chat. */
export async function issueCommand(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  command: ChatCommand,
): Promise<void> {
  const [first = "", title = ""] = command.rest.split(/\s+([\s\S]*)/, 2);
  const parsed = parseRepository(first);
  if (!parsed.ok || !title.trim()) return await reply(ctx, message, USAGE);
  const refusal = await chatActionRefusal(
    ctx.kv,
    telegramPlace(message.chat),
    { kind: "repository", ...parsed.repository },
    null,
  );
  if (refusal !== null) return await reply(ctx, message, refusal);
  const from = message.from;
  const link = from && !from.is_bot ? await getTelegramLink(ctx.kv, String(from.id)) : null;
  const result = await createIssueAsLinkedUser(
    ctx,
    link?.userId ?? null,
    parsed.repository,
    { title: title.replace(/\s+/g, " ").trim(), body: bodyOf(message) },
    { linkCommand: LINK_COMMAND },
  );
  await reply(ctx, message, result.text);
}
