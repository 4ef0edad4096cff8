/**
 * Telling the chat that a chat link is done (the auth service calls it as its
 * `ChatLinkAnnouncer`, once the link is stored): a Discord user gets an ephemeral follow-up in
 * the `/gh link` interaction (its token stays valid for 15 minutes, longer than the sign-in's
 * 10), a Telegram user a message in their private chat with the bot, posted through the
 * Telegram adapter (reserved from and observed by its rate limiter).
 */
import type { ChatLinkAnnouncer } from "../auth/chat_link_confirm.ts";
import type { Config } from "../config.ts";
import { type Adapters, chatPlatform } from "../delivery/adapters.ts";
import { chatCalls } from "../delivery/chat_calls.ts";
import type { Logger } from "../log.ts";
import { requestPacing } from "../platform/pacing.ts";
import type { LinkRequest } from "../store/auth/link_requests.ts";
import { followUp } from "./discord/reply.ts";

/** A confirmation waits up to one second in the request for the rate limit. */
const pacing = requestPacing(1_000);

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
  deps: { config: Config; log: Logger; adapters: Adapters },
  request: LinkRequest,
  login: string,
): Promise<void> {
  const chatId = request.telegramChatId;
  const adapter = deps.adapters.get("telegram");
  if (!chatId || !adapter || adapter.unavailable() !== null) return;
  const text = chatPlatform("telegram").text;
  const body = text.body(
    text.plain(`Your Telegram account is now linked to the GitHub account ${login}.`),
  );
  const result = await chatCalls(pacing, adapter, false).post(
    { platform: "telegram", chatId },
    body,
    `link:${request.requestId}`,
  );
  if (result.kind !== "sent") {
    deps.log.warn("telegram link confirmation not sent", { chatId, outcome: result.kind });
  }
}

/**
 * The announcer that tells the chat user of a request, where the request says, that they now
 * act as `login`, posting through `adapters`.
 */
export function chatLinkAnnouncer(adapters: Adapters): ChatLinkAnnouncer {
  return async (deps, request, login) => {
    if (request.platform === "discord") {
      await confirmInDiscord(deps, request.interactionToken, login);
    } else await confirmInTelegram({ ...deps, adapters }, request, login);
  };
}
