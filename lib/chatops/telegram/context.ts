/** What handling one Telegram update needs: storage, settings, a logger and the bot. */
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { TelegramBot } from "./bot.ts";

/** The services chat-ops uses while it handles an update. */
export interface TelegramChatContext {
  kv: Deno.Kv;
  config: Config;
  log: Logger;
  bot: TelegramBot;
}
