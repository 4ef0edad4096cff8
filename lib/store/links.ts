/**
 * Chat users linked to GitHub accounts (the `discord_links` and
 * `telegram_links` collections), and the pending link a chat command starts:
 * an OAuth state that remembers the chat user, so the callback knows whom to
 * link. The GitHub user's token itself is stored under `["token", userId]`.
 */
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
  | { discordUserId: string; discordName?: string; interactionToken?: string }
  | { telegramUserId: string; telegramChatId: string; telegramName?: string };

/**
 * Starts linking a chat user: stores a single-use OAuth state (10 minutes)
 * that remembers whom to link, and returns it (`startChatLink` in
 * lib/auth/chat_link.ts turns it into GitHub's authorize address).
 */
export async function createLinkState(kv: Deno.Kv, pending: PendingLink): Promise<string> {
  const flow = "discordUserId" in pending
    ? { kind: "discord_link" as const, ...pending }
    : { kind: "telegram_link" as const, ...pending };
  return await createOAuthState(kv, flow);
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

/** Removes a Discord user's link; true when there was one. */
export async function deleteDiscordLink(kv: Deno.Kv, discordUserId: string): Promise<boolean> {
  const key = discordLinkKey(discordUserId);
  const existed = (await kv.get(key)).versionstamp !== null;
  await kv.delete(key);
  return existed;
}

/** Removes a Telegram user's link; true when there was one. */
export async function deleteTelegramLink(kv: Deno.Kv, telegramUserId: string): Promise<boolean> {
  const key = telegramLinkKey(telegramUserId);
  const existed = (await kv.get(key)).versionstamp !== null;
  await kv.delete(key);
  return existed;
}
