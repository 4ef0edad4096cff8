/**
 * The console's account page: the signed-in person's chat accounts linked to their GitHub
 * account, and their own settings.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import {
  chatLinkAudit,
  chatUsersLinkedTo,
  deleteDiscordLink,
  deleteTelegramLink,
  getDiscordLink,
  getTelegramLink,
} from "../store/auth/links.ts";
import type { Platform } from "../types.ts";
import type { UserPreferences } from "../store/auth/user_preferences.ts";
import { readPreferences } from "./preferences.ts";

/** What the account page shows. */
interface AccountView {
  login: string;
  /** Whether the person signed in with GitHub (the DEBUG_MODE principal did not). */
  github: boolean;
  /** Discord user ids linked to this GitHub account, newest first. */
  discord: string[];
  /** Telegram user ids linked to this GitHub account, newest first. */
  telegram: string[];
  preferences: UserPreferences;
}

/**
 * The chat users linked to the person's GitHub account. The index by login may name a chat
 * user who has since linked another account; only links that still point here are listed.
 */
async function linkedChatUsers(kv: Kv, principal: Principal) {
  const [discordIds, telegramIds] = await Promise.all([
    chatUsersLinkedTo(kv, "discord", principal.login),
    chatUsersLinkedTo(kv, "telegram", principal.login),
  ]);
  const [discordLinks, telegramLinks] = await Promise.all([
    Promise.all(discordIds.map((id) => getDiscordLink(kv, id))),
    Promise.all(telegramIds.map((id) => getTelegramLink(kv, id))),
  ]);
  return {
    discord: discordIds.filter((_, i) => discordLinks[i]?.userId === principal.userId),
    telegram: telegramIds.filter((_, i) => telegramLinks[i]?.userId === principal.userId),
  };
}

/** The account page's content for `principal`. */
export async function loadAccount(kv: Kv, principal: Principal): Promise<AccountView> {
  const [links, preferences] = await Promise.all([
    principal.debug ? { discord: [], telegram: [] } : linkedChatUsers(kv, principal),
    readPreferences(kv, principal),
  ]);
  return { login: principal.login, github: !principal.debug, ...links, preferences };
}

/**
 * Removes the link of a chat user to the person's GitHub account; false when that chat user
 * is not linked to it (never linked, already unlinked, or linked to someone else).
 */
export async function unlinkChatUser(
  kv: Kv,
  principal: Principal,
  platform: Platform,
  chatUserId: string,
): Promise<boolean> {
  const link = platform === "discord"
    ? await getDiscordLink(kv, chatUserId)
    : await getTelegramLink(kv, chatUserId);
  if (!link || link.userId !== principal.userId || principal.debug) return false;
  const audit = () => chatLinkAudit("link.delete", principal, platform, chatUserId, "console");
  return platform === "discord"
    ? await deleteDiscordLink(kv, chatUserId, audit)
    : await deleteTelegramLink(kv, chatUserId, audit);
}
