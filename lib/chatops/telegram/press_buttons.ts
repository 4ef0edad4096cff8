/**
 * The buttons a press leaves on the pressed message, set through the Telegram adapter as an
 * answer to the press: reserved against the bot-wide limit only (a group chat's spacing between
 * messages would leave a second quick press's buttons stale) and observed by the rate limiter
 * like every chat call.
 */
import type { InlineKeyboardMarkup } from "@grammyjs/types";
import type { SendResult } from "../../platform/send_result.ts";
import { requestPacing } from "../../platform/pacing.ts";
import type { TelegramChatContext } from "./context.ts";

/** A press's edit waits up to one second for the rate limit, within the update's head start. */
const pacing = requestPacing(1_000);

/** Replaces the buttons of the pressed message `messageId` in `chatId` with `buttons`. */
export async function setPressedButtons(
  ctx: TelegramChatContext,
  chatId: number,
  messageId: number,
  buttons: InlineKeyboardMarkup,
): Promise<SendResult> {
  return await ctx.adapter.editButtons(
    { platform: "telegram", chatId: String(chatId) },
    String(messageId),
    buttons,
    pacing,
  );
}
