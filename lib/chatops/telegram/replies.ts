/**
 * Commands given as a reply to a notification: `/gh comment <text>`, `/gh merge [method]`,
 * `/gh close`, `/gh reopen`, `/gh react <emoji>`. Each acts on the notification's pull request
 * or issue as the sender's linked GitHub account, and answers the outcome in the chat. Outside
 * a reply (or for a notification older than 30 days) the pull request or issue is named first:
 * `/gh close owner/repo#123`, `/gh comment <GitHub address> <text>`. Either passes
 * `chatActionRefusal` first (the group's binding to the repository; for a named item in a chat
 * routes post into, a repository of those routes' groups).
 */
import { getTelegramLink } from "../../store/auth/links.ts";
import { actAsLinkedUser, type ChatAction, MERGE_METHODS, parseMergeMethod } from "../act.ts";
import { type ActionSubject, chatActionRefusal } from "../authorize.ts";
import { parseReaction, reactionList } from "../reactions.ts";
import { type IssueRef, parseRef, refText } from "../../format/issue_ref.ts";
import { reply } from "./account.ts";
import type { ChatCommand } from "./command.ts";
import type { TelegramChatContext } from "./context.ts";
import {
  findNotification,
  issueRefOf,
  telegramPlace,
  UNKNOWN_NOTIFICATION,
} from "./notification.ts";
import type { IncomingMessage } from "./update.ts";

/** The command that links an account, named in refusals. */
export const LINK_COMMAND = "/gh login";

/** The subcommands that act on the notification replied to. */
export const REPLY_COMMANDS: ReadonlySet<string> = new Set([
  "comment",
  "merge",
  "close",
  "reopen",
  "react",
]);

/** The action a command asks for, or the sentence saying what is wrong with it. */
function actionOf(command: ChatCommand): ChatAction | string {
  switch (command.subcommand) {
    case "comment":
      return command.rest
        ? { kind: "comment", body: command.rest }
        : "Write the comment after /gh comment.";
    case "merge": {
      if (!command.rest) return { kind: "merge" };
      const method = parseMergeMethod(command.rest);
      return method ? { kind: "merge", method } : `Merge methods: ${MERGE_METHODS.join(", ")}.`;
    }
    case "close":
    case "reopen":
      return { kind: command.subcommand };
    case "react": {
      const reaction = parseReaction(command.rest);
      return reaction ? { kind: "react", reaction } : `React with one of: ${reactionList()}.`;
    }
    default:
      return "Unknown command.";
  }
}

/**
 * What the command acts on: the notification replied to, else a ref named first (the command
 * then loses it); or the sentence saying why there is nothing to act on.
 */
async function subjectOf(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  command: ChatCommand,
): Promise<{ ref: IssueRef; command: ChatCommand; subject: ActionSubject } | string> {
  const repliedTo = message.reply_to_message?.message_id;
  if (repliedTo !== undefined) {
    const notification = await findNotification(ctx.kv, message.chat, repliedTo);
    const ref = notification && issueRefOf(notification);
    if (ref) return { ref, command, subject: { kind: "notification", notification } };
  }
  const [first = "", rest = ""] = command.rest.split(/\s+([\s\S]*)/, 2);
  const named = parseRef(first);
  if (named.ok) {
    return {
      ref: named.ref,
      command: { ...command, rest: rest.trim() },
      subject: { kind: "named", ref: named.ref },
    };
  }
  if (repliedTo !== undefined) return UNKNOWN_NOTIFICATION;
  return `Reply to a notification with /gh ${command.subcommand}, or name what to act on: ` +
    `/gh ${command.subcommand} owner/repo#123.`;
}

/** Runs a reply command (see the module comment) and answers in the chat. */
export async function replyCommand(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  command: ChatCommand,
): Promise<void> {
  const subject = await subjectOf(ctx, message, command);
  if (typeof subject === "string") return await reply(ctx, message, subject);
  const { ref } = subject;
  const action = actionOf(subject.command);
  if (typeof action === "string") return await reply(ctx, message, action);
  if (action.kind === "merge" && ref.kind === "issue") {
    return await reply(
      ctx,
      message,
      `${refText(ref)} is an issue; only pull requests merge.`,
    );
  }
  const refusal = await chatActionRefusal(
    ctx.kv,
    telegramPlace(message.chat),
    subject.subject,
    null,
  );
  if (refusal !== null) return await reply(ctx, message, refusal);
  const from = message.from;
  const link = from && !from.is_bot ? await getTelegramLink(ctx.kv, String(from.id)) : null;
  const result = await actAsLinkedUser(ctx, link?.userId ?? null, ref, action, {
    linkCommand: LINK_COMMAND,
  });
  await reply(ctx, message, result.text);
}
