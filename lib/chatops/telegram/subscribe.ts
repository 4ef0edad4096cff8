/**
 * `/gh subscribe <group>` and `/gh unsubscribe <group>` in a group or supergroup (a channel
 * has no sender to check, so a super admin allows it in the console): the sender must administer the chat (asked of Telegram with `getChatMember`) and be linked
 * to a GitHub account that is an owner or admin of the group. The chat (a topic stands for its
 * chat) then joins or leaves the group's allowed targets.
 */
import { getTelegramLink } from "../../store/auth/links.ts";
import { notLinkedText } from "../act.ts";
import { subscribeChat, unsubscribeChat } from "../subscribe.ts";
import { reply } from "./account.ts";
import type { ChatCommand } from "./command.ts";
import type { TelegramChatContext } from "./context.ts";
import { isPrivate } from "./place.ts";
import { LINK_COMMAND } from "./replies.ts";
import type { IncomingMessage } from "./update.ts";

const ADMIN_STATUSES: ReadonlySet<string> = new Set(["creator", "administrator"]);

/** Whether Telegram says `userId` administers the chat; null when Telegram could not say. */
async function administers(
  ctx: TelegramChatContext,
  chatId: number,
  userId: number,
): Promise<boolean | null> {
  const outcome = await ctx.bot.member(chatId, userId);
  if (outcome.kind !== "ok") {
    ctx.log.warn("telegram: chat member not read", { chatId, outcome: outcome.kind });
    return null;
  }
  return ADMIN_STATUSES.has(outcome.body?.status);
}

/** Runs `/gh subscribe` or `/gh unsubscribe` (see the module comment) and answers. */
export async function subscribeCommand(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  command: ChatCommand,
): Promise<void> {
  const verb = command.subcommand === "unsubscribe" ? "unsubscribe" : "subscribe";
  if (isPrivate(message)) {
    return await reply(ctx, message, `Send /gh ${verb} in the group it is for.`);
  }
  const groupId = command.rest.split(/\s+/, 1)[0];
  if (!groupId) return await reply(ctx, message, `Name the group: /gh ${verb} <group>.`);
  const from = message.from;
  if (!from || from.is_bot) {
    return await reply(ctx, message, `Only a person can ${verb} a chat; send it as yourself.`);
  }
  const admin = await administers(ctx, message.chat.id, from.id);
  if (admin === null) {
    return await reply(ctx, message, "I could not check your rights in this chat; try again.");
  }
  if (!admin) {
    return await reply(ctx, message, `Only an administrator of this chat can ${verb} it.`);
  }
  const link = await getTelegramLink(ctx.kv, String(from.id));
  if (!link) return await reply(ctx, message, notLinkedText(LINK_COMMAND));
  const actor = { userId: link.userId, login: link.login };
  const target = { platform: "telegram" as const, chatId: String(message.chat.id) };
  const result = verb === "subscribe"
    ? await subscribeChat(ctx.kv, actor, groupId, target)
    : await unsubscribeChat(ctx.kv, actor, groupId, target);
  await reply(ctx, message, result.text);
}
