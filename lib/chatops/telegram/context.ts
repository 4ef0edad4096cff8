/** What handling one Telegram update needs: storage, settings, a logger and the bot. */
import type { Kv } from "../../store/backend/types.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { TelegramBot } from "./bot.ts";

/** The services chat-ops uses while it handles an update. */
export interface TelegramChatContext {
  kv: Kv;
  config: Config;
  log: Logger;
  bot: TelegramBot;
}
