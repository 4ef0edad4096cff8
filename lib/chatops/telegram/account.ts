/**
 * Linking commands: `/gh login` sends the sign-in link in a private message (never in a
 * group), `/gh logout` forgets the link, `/gh whoami` says which GitHub account is linked; and
 * `reply`, which answers a message in its chat and topic.
 */
import { startChatLink } from "../../auth/chat_link.ts";
import { FEATURES } from "../../config.ts";
import { chatLinkAudit, deleteTelegramLink, getTelegramLink } from "../../store/auth/links.ts";
import { botUsername } from "./bot_name.ts";
import type { TelegramChatContext } from "./context.ts";
import { answerPlace, isPrivate } from "./place.ts";
import type { IncomingMessage } from "./update.ts";

/** Whom a command came from: a person (not a bot, not an anonymous admin). */
function senderOf(
  message: IncomingMessage,
): { id: number; first_name?: string; username?: string } | null {
  const from = message.from;
  return from && !from.is_bot ? from : null;
}

/** Answers `message` in its chat and topic. */
export async function reply(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  text: string,
): Promise<void> {
  const outcome = await ctx.bot.send(answerPlace(message), text);
  if (outcome.kind !== "ok") {
    ctx.log.warn("telegram: answer not sent", {
      chatId: message.chat.id,
      outcome: outcome.kind,
      error: outcome.message,
    });
  }
}

function signInText(url: string): string {
  return [
    "Open this link to link your Telegram account to your GitHub account (the page names you " +
    "and continues to GitHub's sign-in):",
    url,
    "",
    "It works once, for 10 minutes. Do not share it: whoever completes the sign-in becomes " +
    "the linked account.",
  ].join("\n");
}

/** Sent in a group when the bot may not message the user privately yet. */
async function startPrivateChatHint(ctx: TelegramChatContext): Promise<string> {
  const name = await botUsername(ctx.bot);
  const where = name
    ? `Open https://t.me/${name}?start=login and press Start`
    : "Open a private chat with me and press Start";
  return `I cannot send you a private message yet. ${where}; I will send your sign-in link there.`;
}

/**
 * `/gh login`: the sign-in link (to the page that names the user, then GitHub) goes to the
 * user's private chat with the bot (its chat id is the user's id), and the confirmation after
 * sign-in lands there too. In a group the group only hears where the link went, or how to
 * open the private chat first.
 */
export async function login(ctx: TelegramChatContext, message: IncomingMessage): Promise<void> {
  const sender = senderOf(message);
  if (!sender) return await reply(ctx, message, "Only a person can link a GitHub account.");
  if (!FEATURES["GitHub sign-in"](ctx.config)) {
    return await reply(ctx, message, "Linking is not available: GitHub sign-in is not set up.");
  }
  const url = await startChatLink(ctx.kv, ctx.config, {
    platform: "telegram",
    chatUserId: String(sender.id),
    username: sender.username,
    telegramChatId: String(sender.id),
  });
  const sent = await ctx.bot.send({ chatId: sender.id }, signInText(url));
  if (isPrivate(message)) {
    if (sent.kind !== "ok") ctx.log.warn("telegram: sign-in link not sent", { kind: sent.kind });
    return;
  }
  if (sent.kind === "ok") {
    return await reply(ctx, message, "I sent you a private message with your sign-in link.");
  }
  if (sent.kind === "refused" && (sent.status === 403 || sent.status === 400)) {
    return await reply(ctx, message, await startPrivateChatHint(ctx));
  }
  ctx.log.warn("telegram: sign-in link not sent", { kind: sent.kind });
  await reply(ctx, message, "I could not send you the sign-in link just now; try again later.");
}

/** `/gh whoami`: the linked GitHub account, or how to link one. */
export async function whoami(ctx: TelegramChatContext, message: IncomingMessage): Promise<void> {
  const sender = senderOf(message);
  const link = sender ? await getTelegramLink(ctx.kv, String(sender.id)) : null;
  await reply(
    ctx,
    message,
    link
      ? `You are linked to the GitHub account ${link.login}.`
      : "You are not linked to a GitHub account. Send /gh login to link one.",
  );
}

/**
 * `/gh logout`: forgets which GitHub account the sender is linked to. Nothing is revoked on
 * GitHub (the account may also sign in to the console); the answer says where to do that.
 */
export async function logout(ctx: TelegramChatContext, message: IncomingMessage): Promise<void> {
  const sender = senderOf(message);
  const chatUserId = sender ? String(sender.id) : null;
  const removed = chatUserId
    ? await deleteTelegramLink(
      ctx.kv,
      chatUserId,
      (link) => chatLinkAudit("link.delete", link, "telegram", chatUserId, "chat"),
    )
    : false;
  await reply(
    ctx,
    message,
    removed
      ? "Unlinked: I no longer act for you on GitHub. To revoke Switchyard's access too, " +
        "remove it under GitHub's Settings → Applications."
      : "You were not linked to a GitHub account.",
  );
}
