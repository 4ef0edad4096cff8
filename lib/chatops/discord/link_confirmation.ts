/**
 * Confirming a finished `/gh link` in Discord: once the sign-in links the account, the user
 * gets an ephemeral follow-up in the `/gh link` interaction (its token stays valid for 15
 * minutes, longer than the sign-in's 10).
 */
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import { followUp } from "./reply.ts";

/** Tells the Discord user which GitHub account is now linked, when the interaction is known. */
export async function confirmDiscordLink(
  deps: { config: Config; log: Logger },
  interactionToken: string | undefined,
  login: string,
): Promise<void> {
  if (!interactionToken || !deps.config.discord.applicationId) return;
  await followUp(
    deps,
    interactionToken,
    `Linked: your Discord account now acts on GitHub as ${login}. Run /gh unlink to undo.`,
  );
}
