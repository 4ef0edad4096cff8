/**
 * `/gh remind …` in Telegram: the sender (a person, not an anonymous admin) must be linked to
 * a GitHub account; `lib/chatops/remind.ts` does the rest. In the private chat the reminder is
 * sent to that chat; in a group chat, into the chat.
 */
import { getTelegramLink } from "../../store/auth/links.ts";
import { notLinkedText } from "../act.ts";
import { runRemind } from "../remind.ts";
import { reply } from "./account.ts";
import type { ChatCommand } from "./command.ts";
import type { TelegramChatContext } from "./context.ts";
import { isPrivate } from "./place.ts";
import { LINK_COMMAND } from "./replies.ts";
import type { IncomingMessage } from "./update.ts";

/** Runs `/gh remind …` and answers in the chat. */
export async function remindCommand(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  command: ChatCommand,
): Promise<void> {
  const from = message.from;
  if (!from || from.is_bot) {
    return await reply(ctx, message, "Only a person can set reminders; send it as yourself.");
  }
  const link = await getTelegramLink(ctx.kv, String(from.id));
  if (!link) return await reply(ctx, message, notLinkedText(LINK_COMMAND));
  const place = {
    private: isPrivate(message),
    target: { platform: "telegram" as const, chatId: String(message.chat.id) },
  };
  const actor = { userId: link.userId, login: link.login };
  await reply(ctx, message, await runRemind(ctx.kv, actor, place, command.rest, Date.now()));
}
