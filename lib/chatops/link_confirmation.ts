/**
 * Telling the chat that a chat link is done (the auth service calls it as its
 * `ChatLinkAnnouncer`, once the link is stored): a Discord user gets an ephemeral follow-up in
 * the `/gh link` interaction (its token stays valid for 15 minutes, longer than the sign-in's
 * 10), a Telegram user a message in their private chat with the bot.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { LinkRequest } from "../store/auth/link_requests.ts";
import { callTelegram } from "../telegram/api.ts";
import { followUp } from "./discord/reply.ts";

async function confirmInDiscord(
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

async function confirmInTelegram(
  deps: { config: Config; log: Logger },
  chatId: string | undefined,
  login: string,
): Promise<void> {
  if (!chatId || !deps.config.telegram.botToken) return;
  const outcome = await callTelegram(deps.config.telegram, "sendMessage", {
    chat_id: chatId,
    text: `Your Telegram account is now linked to the GitHub account ${login}.`,
  });
  if (outcome.kind !== "ok") {
    deps.log.warn("telegram link confirmation not sent", { chatId, outcome: outcome.kind });
  }
}

/** Tells the chat user of `request`, where the request says, that they now act as `login`. */
export async function announceChatLink(
  deps: { config: Config; log: Logger },
  request: LinkRequest,
  login: string,
): Promise<void> {
  if (request.platform === "discord") {
    await confirmInDiscord(deps, request.interactionToken, login);
  } else await confirmInTelegram(deps, request.telegramChatId, login);
}
