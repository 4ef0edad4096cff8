/**
 * What an update leads to: a command in a message, or a button press, which is always
 * answered (`answerCallbackQuery`), with the result or the refusal, even when handling it
 * failed.
 */
import { login, logout, reply, whoami } from "./account.ts";
import { type PressAnswer, pressButton } from "./buttons.ts";
import { botUsername } from "./bot_name.ts";
import { type ChatCommand, parseCommand } from "./command.ts";
import type { TelegramChatContext } from "./context.ts";
import { isPrivate } from "./place.ts";
import { MUTE_COMMANDS, muteCommand } from "./mute.ts";
import { REPLY_COMMANDS, replyCommand } from "./replies.ts";
import { subscribeCommand } from "./subscribe.ts";
import { issueCommand } from "./issue.ts";
import { isNotifyButton, notifyCommand, pressNotifyButton } from "./notify.ts";
import { remindCommand } from "./remind.ts";
import { resumeCommand } from "./resume.ts";
import { pressRunButton, REVIEW_COMMANDS, reviewCommand } from "./run_buttons.ts";
import { parseRunButton } from "../../format/run_buttons.ts";
import type { ButtonPress, IncomingMessage, UpdateWork } from "./update.ts";

/** The answer to `/gh` and `/gh help`. */
const HELP_TEXT = [
  "Switchyard commands:",
  "/gh login: link your GitHub account (the link comes in a private message)",
  "/gh logout: forget the link",
  "/gh whoami: the linked GitHub account",
  "",
  "Reply to a notification with:",
  "/gh comment <text>, /gh merge [merge|squash|rebase], /gh close, /gh reopen, /gh react <emoji>",
  "(or name it first anywhere: /gh close owner/repo#123, or its GitHub address)",
  "",
  "Reply to a deployment waiting for review with /gh approve [comment] or /gh reject [comment]",
  "/gh issue owner/repo <title>: open an issue (as a reply, the message replied to is its body)",
  "",
  "/gh subscribe <group>, /gh unsubscribe <group>: let a group post into this chat, or stop " +
  "it (chat administrators who own or administer the group)",
  "/gh mute author <login>|label <name>|bots, /gh unmute …, /gh filters: what this chat's routes leave out",
  "/gh resume: send what was held while this chat was paused (owners and admins of its group)",
  "/gh notify [on|off]: your personal notifications (in the private chat with me)",
  "/gh remind <days> <times> <time zone> [older <hours>] [allclear], /gh remind list, " +
  "/gh remind delete <id>: review reminders (here: yours; in a group chat: the group's)",
].join("\n");

/** The text shown when a button press cannot be handled. */
const BUTTON_FAILED = "Something went wrong; try again later.";

/** Handles one update's work. */
export async function handleUpdate(ctx: TelegramChatContext, work: UpdateWork): Promise<void> {
  switch (work.kind) {
    case "message":
      return await handleMessage(ctx, work.message);
    case "button":
    case "unreadable_button":
      return await answerButton(ctx, work);
    case "ignored":
      return;
  }
}

/**
 * Whether a command names a bot (`/gh@name`) that is not this one; while Telegram cannot say
 * this bot's name, a command that names any bot is left alone too (in a group with several
 * bots, answering another bot's command would be worse than missing one of ours).
 */
async function isForAnotherBot(ctx: TelegramChatContext, command: ChatCommand): Promise<boolean> {
  if (command.botName === undefined) return false;
  const me = await botUsername(ctx.bot);
  return me === null || me !== command.botName;
}

async function handleMessage(ctx: TelegramChatContext, message: IncomingMessage): Promise<void> {
  const command = parseCommand(message.text ?? "");
  if (!command || await isForAnotherBot(ctx, command)) return;
  if (command.name === "start") {
    if (isPrivate(message) && command.subcommand === "login") return await login(ctx, message);
    return await reply(ctx, message, HELP_TEXT);
  }
  switch (command.subcommand) {
    case "":
    case "help":
      return await reply(ctx, message, HELP_TEXT);
    case "login":
      return await login(ctx, message);
    case "logout":
      return await logout(ctx, message);
    case "whoami":
      return await whoami(ctx, message);
    case "subscribe":
    case "unsubscribe":
      return await subscribeCommand(ctx, message, command);
    case "resume":
      return await resumeCommand(ctx, message);
    default:
      if (MUTE_COMMANDS.has(command.subcommand)) return await muteCommand(ctx, message, command);
      if (REPLY_COMMANDS.has(command.subcommand)) {
        return await replyCommand(ctx, message, command);
      }
      if (REVIEW_COMMANDS.has(command.subcommand)) {
        return await reviewCommand(ctx, message, command);
      }
      if (command.subcommand === "issue") return await issueCommand(ctx, message, command);
      if (command.subcommand === "notify") return await notifyCommand(ctx, message, command);
      if (command.subcommand === "remind") return await remindCommand(ctx, message, command);
      return await reply(
        ctx,
        message,
        `Unknown command "${command.subcommand.slice(0, 32)}". Send /gh help for the commands.`,
      );
  }
}

/** A press of a run's button, or of a pull request's or issue's. */
async function pressAny(ctx: TelegramChatContext, press: ButtonPress): Promise<PressAnswer> {
  if (isNotifyButton(press.data)) return await pressNotifyButton(ctx, press);
  const run = parseRunButton(press.data ?? "");
  return run ? await pressRunButton(ctx, press, run) : await pressButton(ctx, press);
}

async function answerButton(
  ctx: TelegramChatContext,
  work: Extract<UpdateWork, { kind: "button" | "unreadable_button" }>,
): Promise<void> {
  const queryId = work.kind === "button" ? work.press.id : work.queryId;
  let answer: PressAnswer = { text: BUTTON_FAILED, alert: true };
  try {
    answer = work.kind === "button"
      ? await pressAny(ctx, work.press)
      : { text: "This button press could not be read.", alert: true };
  } finally {
    const outcome = await ctx.bot.answerCallback(queryId, answer.text, answer.alert);
    if (outcome.kind !== "ok") {
      ctx.log.warn("telegram: button press not answered", { outcome: outcome.kind });
    }
  }
}
