/**
 * Linking a chat user to a GitHub account: a chat command sends the user GitHub's authorize
 * address, and the callback (`sign_in.ts`) links whoever completes that sign-in.
 */
import type { Config } from "../config.ts";
import { createLinkState, type PendingLink } from "../store/links.ts";
import { authorizeUrl } from "./oauth.ts";

/**
 * Starts linking a chat user: a single-use state (10 minutes) and GitHub's authorize address
 * for it. Send it privately: whoever completes the sign-in becomes the linked account.
 */
export async function startChatLink(
  kv: Deno.Kv,
  config: Config,
  pending: PendingLink,
): Promise<string> {
  return authorizeUrl(config, await createLinkState(kv, pending));
}
