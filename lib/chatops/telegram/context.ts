/**
 * What handling one Telegram update needs: storage, settings, a logger, the bot and the
 * Telegram adapter (the one the delivery worker shares, for calls its rate limiter must see).
 */
import type { Kv } from "../../store/backend/types.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { PlatformAdapter } from "../../platform/adapter.ts";
import type { TelegramBot } from "./bot.ts";

/** The services chat-ops uses while it handles an update. */
export interface TelegramChatContext {
  kv: Kv;
  config: Config;
  log: Logger;
  bot: TelegramBot;
  /** Telegram's adapter: a press's new buttons go through it (`press_buttons.ts`). */
  adapter: PlatformAdapter;
}
