/**
 * Button presses on a notification. Merge first swaps the buttons for a confirmation (one
 * button per merge method, and Cancel); React swaps them for GitHub's eight reactions. An
 * action runs as the presser's linked GitHub account; its outcome is the press's answer, and a
 * merge, close or reopen that worked updates the buttons to the new state. Every press gets
 * an answer, also when it is refused. A press acts only when its data's tag is the
 * notification's item and `chatActionRefusal` allows it (the group's binding to the repository).
 */
import type { InlineKeyboardMarkup } from "@grammyjs/types";
import {
  type ButtonAction,
  buttonTag,
  mergeConfirmKeyboard,
  parseButtonData,
  reactionKeyboard,
  type SubjectState,
  type TelegramActions,
  telegramKeyboard,
} from "../../format/telegram.ts";
import { getTelegramLink } from "../../store/auth/links.ts";
import { MESSAGE_REF_LIFETIME_MS } from "../../store/delivery/message_refs.ts";
import { actAsLinkedUser, type ChatAction, notLinkedText } from "../act.ts";
import { chatActionRefusal } from "../authorize.ts";
import type { Reaction } from "../reactions.ts";
import { REACTION_EMOJI } from "../reactions.ts";
import type { TelegramChatContext } from "./context.ts";
import { refText } from "../../format/issue_ref.ts";
import { subjectTag } from "../../format/subject.ts";
import {
  findNotification,
  issueRefOf,
  telegramPlace,
  UNBOUND_NOTIFICATION,
  UNKNOWN_NOTIFICATION,
} from "./notification.ts";
import { LINK_COMMAND } from "./replies.ts";
import { setPressedButtons } from "./press_buttons.ts";
import type { ButtonPress, IncomingKeyboard, IncomingMessage } from "./update.ts";

/** The answer a press gets: a short text, as a dialog (`alert`) for refusals. */
export interface PressAnswer {
  text: string;
  alert: boolean;
}

const refused = (text: string): PressAnswer => ({ text, alert: true });
const done = (text: string): PressAnswer => ({ text, alert: false });

function buttonsOf(keyboard: IncomingKeyboard | undefined) {
  return keyboard?.inline_keyboard.flat() ?? [];
}

/** The Open button's address on the message's current buttons. */
function openUrlOf(keyboard: IncomingKeyboard | undefined): string | undefined {
  return buttonsOf(keyboard).find((button) => button.url !== undefined)?.url;
}

/** The state the message's current buttons show (a sub-menu names it on its Back button). */
function stateOf(keyboard: IncomingKeyboard | undefined): SubjectState {
  const actions = buttonsOf(keyboard)
    .map((button) => parseButtonData(button.callback_data ?? ""))
    .filter((action): action is ButtonAction => action !== null);
  const back = actions.find((action) => action.kind === "back");
  if (back?.kind === "back") return back.state;
  if (actions.some((a) => a.kind === "merge_confirm" || a.kind === "close")) return "open";
  return actions.some((a) => a.kind === "reopen") ? "closed" : "merged";
}

/** The action a press runs on GitHub, or null for a press that only changes the buttons. */
function chatActionOf(action: ButtonAction): ChatAction | null {
  switch (action.kind) {
    case "merge":
      return { kind: "merge", method: action.method };
    case "close":
    case "reopen":
      return { kind: action.kind };
    case "react":
      return REACTION_EMOJI.has(action.content as Reaction)
        ? { kind: "react", reaction: action.content as Reaction }
        : null;
    default:
      return null;
  }
}

/** The state a successful action leaves the subject in (null: unchanged). */
function stateAfter(action: ChatAction): SubjectState | null {
  switch (action.kind) {
    case "merge":
      return "merged";
    case "close":
      return "closed";
    case "reopen":
      return "open";
    default:
      return null;
  }
}

async function setButtons(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  markup: InlineKeyboardMarkup,
): Promise<void> {
  const result = await setPressedButtons(ctx, message.chat.id, message.message_id, markup);
  if (result.kind !== "sent") {
    ctx.log.warn("telegram: buttons not updated", {
      chatId: message.chat.id,
      outcome: result.kind,
      error: result.error,
    });
  }
}

/** Handles one press and answers what its answer says (see the module comment). */
export async function pressButton(
  ctx: TelegramChatContext,
  press: ButtonPress,
): Promise<PressAnswer> {
  const action = parseButtonData(press.data ?? "");
  if (!action) return refused("This button does nothing here.");
  const message = press.message;
  if (!message || message.date === 0) {
    return refused("This message is too old to act on; open it on GitHub instead.");
  }
  const notification = await findNotification(ctx.kv, message.chat, message.message_id);
  const ref = notification && issueRefOf(notification);
  if (!notification || !ref) {
    const recent = Date.now() - message.date * 1000 < MESSAGE_REF_LIFETIME_MS;
    return refused(recent ? UNBOUND_NOTIFICATION : UNKNOWN_NOTIFICATION);
  }
  const tag = buttonTag(press.data ?? "");
  if (tag !== subjectTag(notification.subject.repository, notification.subject.number)) {
    return refused(`This button does not name ${refText(ref)}; nothing was done.`);
  }
  const refusal = await chatActionRefusal(
    ctx.kv,
    telegramPlace(message.chat),
    { kind: "notification", notification },
    null,
  );
  if (refusal !== null) return refused(refusal);
  const current: TelegramActions = {
    kind: ref.kind ?? "issue",
    state: stateOf(message.reply_markup),
    tag,
    ...(openUrlOf(message.reply_markup) ? { url: openUrlOf(message.reply_markup) } : {}),
  };
  const link = press.from.is_bot ? null : await getTelegramLink(ctx.kv, String(press.from.id));

  switch (action.kind) {
    case "back":
      await setButtons(ctx, message, telegramKeyboard({ ...current, state: action.state }));
      return done("");
    case "react_menu":
      await setButtons(ctx, message, reactionKeyboard(current.state, current.url, tag));
      return done("Pick a reaction.");
    case "merge_confirm":
      if (current.kind !== "pull") return refused("Only pull requests merge.");
      if (!link) return refused(notLinkedText(LINK_COMMAND));
      await setButtons(ctx, message, mergeConfirmKeyboard(current.url, tag));
      return done("Choose how to merge, or Cancel.");
  }

  const chatAction = chatActionOf(action);
  if (!chatAction) return refused("This button does nothing here.");
  const result = await actAsLinkedUser(ctx, link?.userId ?? null, ref, chatAction, {
    linkCommand: LINK_COMMAND,
  });
  const after = result.ok ? stateAfter(chatAction) : null;
  if (after !== null || chatAction.kind === "merge" || chatAction.kind === "react") {
    const state = after ?? current.state;
    await setButtons(ctx, message, telegramKeyboard({ ...current, state }));
  }
  return result.ok ? done(result.text) : refused(result.text);
}
