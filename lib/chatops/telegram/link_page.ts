/**
 * The page between `/gh login` and GitHub: whoever completes the sign-in becomes the GitHub
 * account that acts for the Telegram user, so before going to GitHub the page names the
 * Telegram user being linked and asks to continue only if that is the reader (a link forwarded
 * to someone else then shows whose it is). The state is not used up here; GitHub's callback
 * uses it.
 */
import { authorizeUrl } from "../../auth/oauth.ts";
import type { Config } from "../../config.ts";
import { createLinkState } from "../../store/links.ts";
import { peekOAuthState } from "../../store/oauth_states.ts";

/** A pending Telegram link, as the page shows it. */
export interface PendingTelegramLink {
  telegramUserId: string;
  telegramName: string;
  /** GitHub's authorize address for the state. */
  continueUrl: string;
}

/** Longest name kept for the page. */
const NAME_MAX = 100;
const STATE_FORMAT = /^[\w-]{16,128}$/;

/** The Telegram user as the page names them: first name and `@username` when there is one. */
export function telegramNameOf(user: { first_name?: string; username?: string }): string {
  const first = (user.first_name ?? "").trim();
  const name = user.username ? `${first} (@${user.username})`.trim() : first;
  return name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name;
}

/**
 * Starts linking a Telegram user (a single-use state, 10 minutes) and answers the address of
 * the page that confirms it. The confirmation after sign-in goes to the user's private chat.
 */
export async function startTelegramLink(
  kv: Deno.Kv,
  config: Config,
  user: { id: number; first_name?: string; username?: string },
): Promise<string> {
  const name = telegramNameOf(user);
  const state = await createLinkState(kv, {
    telegramUserId: String(user.id),
    telegramChatId: String(user.id),
    ...(name ? { telegramName: name } : {}),
  });
  return `${config.baseUrl}/telegram/link?state=${encodeURIComponent(state)}`;
}

/** The pending Telegram link of `state`, or null (malformed, unknown, used or expired). */
export async function pendingTelegramLink(
  deps: { kv: Deno.Kv; config: Config },
  state: string | null,
): Promise<PendingTelegramLink | null> {
  if (!state || !STATE_FORMAT.test(state)) return null;
  const flow = await peekOAuthState(deps.kv, state);
  if (!flow || flow.kind !== "telegram_link") return null;
  return {
    telegramUserId: flow.telegramUserId,
    telegramName: flow.telegramName || `user ${flow.telegramUserId}`,
    continueUrl: authorizeUrl(deps.config, state),
  };
}
