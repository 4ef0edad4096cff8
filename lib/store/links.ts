/**
 * Chat users linked to GitHub accounts (the `discord_links` and
 * `telegram_links` collections), and the pending link a chat command starts:
 * an OAuth state that remembers the chat user, so the callback knows whom to
 * link. The GitHub user's token itself is stored under `["token", userId]`.
 */
import { authorizeUrl } from "../auth/oauth.ts";
import type { Config } from "../config.ts";
import { discordLinkKey, telegramLinkKey } from "./keys.ts";
import { createOAuthState } from "./oauth_states.ts";

/** A Discord user's linked GitHub account. */
export interface DiscordLink {
  discordUserId: string;
  userId: string;
  login: string;
  linkedAt: number;
}

/** A Telegram user's linked GitHub account. */
export interface TelegramLink {
  telegramUserId: string;
  userId: string;
  login: string;
  linkedAt: number;
}

/** Who a pending link is for. */
export type PendingLink =
  | { discordUserId: string }
  | { telegramUserId: string; telegramChatId: string };

/**
 * Starts linking a chat user: stores a single-use state (10 minutes) and
 * returns GitHub's authorize address to send that user to. Send it privately:
 * whoever completes the sign-in becomes the linked account.
 */
export async function createLinkState(
  kv: Deno.Kv,
  config: Config,
  pending: PendingLink,
): Promise<string> {
  const flow = "discordUserId" in pending
    ? { kind: "discord_link" as const, discordUserId: pending.discordUserId }
    : {
      kind: "telegram_link" as const,
      telegramUserId: pending.telegramUserId,
      telegramChatId: pending.telegramChatId,
    };
  return authorizeUrl(config, await createOAuthState(kv, flow));
}

/** Links (or re-links) a Discord user to a GitHub account. */
export async function saveDiscordLink(kv: Deno.Kv, link: DiscordLink): Promise<void> {
  await kv.set(discordLinkKey(link.discordUserId), link);
}

/** The Discord user's link, or null. */
export async function getDiscordLink(
  kv: Deno.Kv,
  discordUserId: string,
): Promise<DiscordLink | null> {
  return (await kv.get<DiscordLink>(discordLinkKey(discordUserId))).value;
}

/** Links (or re-links) a Telegram user to a GitHub account. */
export async function saveTelegramLink(kv: Deno.Kv, link: TelegramLink): Promise<void> {
  await kv.set(telegramLinkKey(link.telegramUserId), link);
}

/** The Telegram user's link, or null. */
export async function getTelegramLink(
  kv: Deno.Kv,
  telegramUserId: string,
): Promise<TelegramLink | null> {
  return (await kv.get<TelegramLink>(telegramLinkKey(telegramUserId))).value;
}
