import { handleTelegramWebhook } from "../../lib/chatops/telegram/webhook.ts";
import { define } from "../../lib/state.ts";

/** Telegram's updates for the bot: commands and button presses (chat-ops). */
export const handler = define.handlers({
  POST: (ctx) => handleTelegramWebhook(ctx.state, ctx.req),
});
