/**
 * The buttons of workflow run and deployment review notifications on Telegram, and the reply
 * commands of a deployment review (`/gh approve [comment]`, `/gh reject [comment]` as a reply
 * to its notification). Re-run failed jobs, Re-run all and Cancel act on the card's run as the
 * presser's linked GitHub account; the answer says what happened, and the card follows the
 * run's next events. Approve and Reject (a press, without a comment; a reply, with one) review
 * the deployments waiting for the card's environment; when GitHub accepts, the card's buttons
 * give way to one link to the run saying who approved or rejected it. Each passes the same
 * checks as the other buttons: the notification is known, its tag names the run, and
 * `chatActionRefusal` allows it (the group's binding to the repository).
 */
import {
  RUN_ACTION_IDS,
  type RunActionId,
  telegramReviewedKeyboard,
} from "../../format/run_buttons.ts";
import { getTelegramLink } from "../../store/auth/links.ts";
import {
  MESSAGE_REF_LIFETIME_MS,
  type MessageRef,
  noteReviewDecision,
} from "../../store/delivery/message_refs.ts";
import { type ChatReply, notLinkedText } from "../act.ts";
import { chatActionRefusal } from "../authorize.ts";
import {
  actOnRunAsLinkedUser,
  type RunAction,
  type RunRef,
  runRefOf,
  runText,
} from "../run_act.ts";
import { subjectTag } from "../../format/subject.ts";
import { reply } from "./account.ts";
import type { PressAnswer } from "./buttons.ts";
import type { ChatCommand } from "./command.ts";
import type { TelegramChatContext } from "./context.ts";
import {
  type ChatOfMessage,
  findNotification,
  telegramPlace,
  UNBOUND_NOTIFICATION,
  UNKNOWN_NOTIFICATION,
} from "./notification.ts";
import { LINK_COMMAND } from "./replies.ts";
import { setPressedButtons } from "./press_buttons.ts";
import type { ButtonPress, IncomingMessage } from "./update.ts";

/** The reply commands of a deployment review. */
export const REVIEW_COMMANDS: ReadonlySet<string> = new Set(["approve", "reject"]);

/** The run a notification is about, when it is of `kind`. */
function runOfKind(notification: MessageRef, kind: "run" | "deployment"): RunRef | null {
  const { subject } = notification;
  return subject.kind === kind ? runRefOf({ ...subject, kind }) : null;
}

function runPage(run: RunRef): string {
  return `https://github.com/${run.owner}/${run.repo}/actions/runs/${run.runId}`;
}

/** Why the run of `notification` may not be acted on from `chat`, or null. */
async function refusalFor(
  ctx: TelegramChatContext,
  chat: ChatOfMessage,
  notification: MessageRef,
): Promise<string | null> {
  return await chatActionRefusal(ctx.kv, telegramPlace(chat), {
    kind: "notification",
    notification,
  }, null);
}

/**
 * Reviews the deployment of the card `card` as `from` and, when GitHub accepts, replaces
 * the card's buttons with a link saying who decided (kept on its record for the outcome).
 */
async function review(
  ctx: TelegramChatContext,
  chat: ChatOfMessage,
  card: { id: number; notification: MessageRef },
  run: RunRef,
  link: { userId: string; login: string } | null,
  action: Extract<RunAction, { kind: "review" }>,
): Promise<ChatReply> {
  const result = await actOnRunAsLinkedUser(ctx, link, run, action, {
    linkCommand: LINK_COMMAND,
  });
  if (!result.ok || !link) return result;
  const word = action.state === "approved" ? "✅ Approved" : "⛔ Rejected";
  const decision = `${word} by ${link.login}`;
  const markup = telegramReviewedKeyboard(decision, runPage(run));
  const edited = await setPressedButtons(ctx, chat.id, card.id, markup);
  if (edited.kind !== "sent") {
    ctx.log.warn("telegram: reviewed card not updated", { chatId: chat.id, outcome: edited.kind });
  }
  await noteReviewDecision(ctx.kv, card.notification, decision);
  return result;
}

function actionOf(id: RunActionId): RunAction {
  switch (id) {
    case RUN_ACTION_IDS.approve:
      return { kind: "review", state: "approved", comment: "" };
    case RUN_ACTION_IDS.reject:
      return { kind: "review", state: "rejected", comment: "" };
    case RUN_ACTION_IDS.cancel:
      return { kind: "cancel" };
    default:
      return { kind: "rerun", failedOnly: id === RUN_ACTION_IDS.rerunFailed };
  }
}

/** Handles a press of a run button (`id` and the tag its data ends in). */
export async function pressRunButton(
  ctx: TelegramChatContext,
  press: ButtonPress,
  pressed: { id: RunActionId; tag?: string },
): Promise<PressAnswer> {
  const refused = (text: string): PressAnswer => ({ text, alert: true });
  const message = press.message;
  if (!message || message.date === 0) {
    return refused("This message is too old to act on; open it on GitHub instead.");
  }
  const action = actionOf(pressed.id);
  const notification = await findNotification(ctx.kv, message.chat, message.message_id);
  const run = notification &&
    runOfKind(notification, action.kind === "review" ? "deployment" : "run");
  if (!notification || !run) {
    const recent = Date.now() - message.date * 1000 < MESSAGE_REF_LIFETIME_MS;
    return refused(recent ? UNBOUND_NOTIFICATION : UNKNOWN_NOTIFICATION);
  }
  if (pressed.tag !== subjectTag(notification.subject.repository, notification.subject.number)) {
    return refused(`This button does not name ${runText(run)}; nothing was done.`);
  }
  const refusal = await refusalFor(ctx, message.chat, notification);
  if (refusal !== null) return refused(refusal);
  const link = press.from.is_bot ? null : await getTelegramLink(ctx.kv, String(press.from.id));
  if (!link) return refused(notLinkedText(LINK_COMMAND));
  const result = action.kind === "review"
    ? await review(ctx, message.chat, { id: message.message_id, notification }, run, link, action)
    : await actOnRunAsLinkedUser(ctx, link, run, action, { linkCommand: LINK_COMMAND });
  return { text: result.text, alert: !result.ok };
}

/** `/gh approve [comment]` or `/gh reject [comment]` as a reply to a deployment review. */
export async function reviewCommand(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  command: ChatCommand,
): Promise<void> {
  const cardId = message.reply_to_message?.message_id;
  const notification = cardId === undefined
    ? null
    : await findNotification(ctx.kv, message.chat, cardId);
  const run = notification && runOfKind(notification, "deployment");
  if (cardId === undefined || !notification || !run) {
    return await reply(
      ctx,
      message,
      `Reply to a deployment waiting for review with /gh ${command.subcommand} [comment].`,
    );
  }
  const refusal = await refusalFor(ctx, message.chat, notification);
  if (refusal !== null) return await reply(ctx, message, refusal);
  const from = message.from;
  const link = from && !from.is_bot ? await getTelegramLink(ctx.kv, String(from.id)) : null;
  const state = command.subcommand === "approve" ? "approved" : "rejected";
  const result = await review(ctx, message.chat, { id: cardId, notification }, run, link, {
    kind: "review",
    state,
    comment: command.rest,
  });
  await reply(ctx, message, result.text);
}
