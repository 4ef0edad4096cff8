/**
 * `/gh mute …`, `/gh unmute …` and `/gh filters` in a Telegram chat: the sender (a person, not
 * an anonymous admin) must be linked to a GitHub account that owns or administers a group
 * posting into the chat; `lib/chatops/mute.ts` does the rest.
 */
import { getTelegramLink } from "../../store/auth/links.ts";
import { notLinkedText } from "../act.ts";
import { type MuteRequest, parseMuteRequest, runMuteRequest } from "../mute.ts";
import { reply } from "./account.ts";
import type { ChatCommand } from "./command.ts";
import type { TelegramChatContext } from "./context.ts";
import { LINK_COMMAND } from "./replies.ts";
import type { IncomingMessage } from "./update.ts";

/** The subcommands this module answers. */
export const MUTE_COMMANDS: ReadonlySet<string> = new Set(["mute", "unmute", "filters"]);

/** Runs a mute, unmute or filters command and answers in the chat. */
export async function muteCommand(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  command: ChatCommand,
): Promise<void> {
  const request: MuteRequest | string = command.subcommand === "filters"
    ? { verb: "filters" }
    : parseMuteRequest(command.subcommand === "unmute" ? "unmute" : "mute", command.rest);
  if (typeof request === "string") return await reply(ctx, message, request);
  const from = message.from;
  if (!from || from.is_bot) {
    return await reply(ctx, message, "Only a person can change the filters; send it as yourself.");
  }
  const link = await getTelegramLink(ctx.kv, String(from.id));
  if (!link) return await reply(ctx, message, notLinkedText(LINK_COMMAND));
  const result = await runMuteRequest(
    ctx.kv,
    { userId: link.userId, login: link.login },
    { platform: "telegram", chatId: String(message.chat.id) },
    request,
  );
  await reply(ctx, message, result.text);
}
