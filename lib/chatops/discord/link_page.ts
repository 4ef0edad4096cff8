/**
 * The page between `/gh link` and GitHub: whoever completes the sign-in becomes the GitHub
 * account that acts for the Discord user, so before going to GitHub the page names the Discord
 * user being linked and asks to continue only if that is the reader. The state is not used up
 * here; GitHub's callback uses it.
 */
import { authorizeUrl } from "../../auth/oauth.ts";
import type { Config } from "../../config.ts";
import { peekOAuthState } from "../../store/oauth_states.ts";

/** A pending Discord link, as the page shows it. */
export interface PendingDiscordLink {
  discordUserId: string;
  discordName: string;
  /** GitHub's authorize address for the state. */
  continueUrl: string;
}

const STATE_FORMAT = /^[\w-]{16,128}$/;

/** The confirmation page's address for a link state. */
export function linkPageUrl(config: Config, state: string): string {
  return `${config.baseUrl}/discord/link?state=${encodeURIComponent(state)}`;
}

/** The pending Discord link of `state`, or null (malformed, unknown, used or expired). */
export async function pendingDiscordLink(
  deps: { kv: Deno.Kv; config: Config },
  state: string | null,
): Promise<PendingDiscordLink | null> {
  if (!state || !STATE_FORMAT.test(state)) return null;
  const flow = await peekOAuthState(deps.kv, state);
  if (!flow || flow.kind !== "discord_link") return null;
  return {
    discordUserId: flow.discordUserId,
    discordName: flow.discordName ?? flow.discordUserId,
    continueUrl: authorizeUrl(deps.config, state),
  };
}
