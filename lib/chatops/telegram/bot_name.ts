/**
 * The bot's own user name (from `getMe`), kept per bot once known: commands addressed to
 * another bot (`/gh@OtherBot`) are left alone, and "start a private chat" hints link to
 * `t.me/<name>`.
 */
import type { TelegramBot } from "./bot.ts";

const known = new WeakMap<TelegramBot, string>();

/** The bot's user name, lower-case, or null while Telegram cannot say. */
export async function botUsername(bot: TelegramBot): Promise<string | null> {
  const cached = known.get(bot);
  if (cached !== undefined) return cached;
  const outcome = await bot.me();
  const name = outcome.kind === "ok" ? outcome.body?.username : undefined;
  if (typeof name !== "string" || !/^\w{1,64}$/.test(name)) return null;
  known.set(bot, name.toLowerCase());
  return name.toLowerCase();
}
