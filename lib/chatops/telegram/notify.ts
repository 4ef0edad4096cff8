/**
 * `/gh notify` in the private chat with the bot: the kinds of personal notifications with an
 * on/off button each and a pause button; `/gh notify off` pauses all, `/gh notify on` resumes.
 * A press switches the presser's own setting, only in their private chat, and redraws the
 * buttons. Settings belong to the linked GitHub account (`lib/notify/controls.ts`).
 */
import type { InlineKeyboardMarkup } from "@grammyjs/types";
import {
  KIND_LABELS,
  setPaused,
  settingsSummary,
  TELEGRAM_HINTS,
  toggleKind,
} from "../../notify/controls.ts";
import { getTelegramLink } from "../../store/auth/links.ts";
import {
  getNotifySettings,
  isNotifyKind,
  NOTIFY_KINDS,
  type NotifySettings,
} from "../../store/notify/notify_settings.ts";
import { notLinkedText } from "../act.ts";
import { reply } from "./account.ts";
import type { PressAnswer } from "./buttons.ts";
import type { ChatCommand } from "./command.ts";
import type { TelegramChatContext } from "./context.ts";
import { isPrivate } from "./place.ts";
import { LINK_COMMAND } from "./replies.ts";
import { setPressedButtons } from "./press_buttons.ts";
import type { ButtonPress, IncomingMessage } from "./update.ts";

const PREFIX = "ntf:";
const ONLY_PRIVATE = "Send /gh notify in your private chat with me: your settings are yours.";

/** Whether a button's data is one of these controls. */
export function isNotifyButton(data: string | undefined): boolean {
  return data !== undefined && data.startsWith(PREFIX) && data.length <= 64;
}

/** The on/off buttons of `settings`, one row per kind, and pause or resume. */
function notifyKeyboard(settings: NotifySettings): InlineKeyboardMarkup {
  return {
    inline_keyboard: [
      ...NOTIFY_KINDS.map((kind) => [{
        text: `${settings.kinds[kind] ? "✅" : "⬜"} ${KIND_LABELS.get(kind)}`,
        callback_data: `${PREFIX}${kind}`,
      }]),
      [
        settings.paused
          ? { text: "▶️ Resume all", callback_data: `${PREFIX}resume` }
          : { text: "⏸ Pause all", callback_data: `${PREFIX}pause` },
      ],
    ],
  };
}

/** `/gh notify [on|off]`, in the private chat of a linked person. */
export async function notifyCommand(
  ctx: TelegramChatContext,
  message: IncomingMessage,
  command: ChatCommand,
): Promise<void> {
  if (!isPrivate(message)) return await reply(ctx, message, ONLY_PRIVATE);
  const from = message.from;
  const link = from && !from.is_bot ? await getTelegramLink(ctx.kv, String(from.id)) : null;
  if (!link) return await reply(ctx, message, notLinkedText(LINK_COMMAND));
  const word = command.rest.toLowerCase();
  if (word !== "" && word !== "on" && word !== "off") {
    return await reply(ctx, message, "Send /gh notify, /gh notify on or /gh notify off.");
  }
  const settings = word === ""
    ? await getNotifySettings(ctx.kv, link.userId)
    : await setPaused(ctx.kv, link.userId, word === "off");
  const outcome = await ctx.bot.send(
    { chatId: message.chat.id },
    settingsSummary(settings, TELEGRAM_HINTS),
    {
      markup: notifyKeyboard(settings),
    },
  );
  if (outcome.kind !== "ok") {
    ctx.log.warn("telegram: notify settings not sent", { kind: outcome.kind });
  }
}

/** A press of one of the controls: switches the presser's setting and redraws the buttons. */
export async function pressNotifyButton(
  ctx: TelegramChatContext,
  press: ButtonPress,
): Promise<PressAnswer> {
  const message = press.message;
  const what = (press.data ?? "").slice(PREFIX.length);
  if (!message || message.chat.id !== press.from.id || message.chat.type !== "private") {
    return { text: ONLY_PRIVATE, alert: true };
  }
  const link = press.from.is_bot ? null : await getTelegramLink(ctx.kv, String(press.from.id));
  if (!link) return { text: notLinkedText(LINK_COMMAND), alert: true };
  let settings: NotifySettings;
  let text: string;
  if (what === "pause" || what === "resume") {
    settings = await setPaused(ctx.kv, link.userId, what === "pause");
    text = settings.paused ? "Paused." : "Resumed.";
  } else if (isNotifyKind(what)) {
    settings = await toggleKind(ctx.kv, link.userId, what);
    text = `${KIND_LABELS.get(what)}: ${settings.kinds[what] ? "on" : "off"}`;
  } else {
    return { text: "This button does nothing here.", alert: true };
  }
  const result = await setPressedButtons(
    ctx,
    message.chat.id,
    message.message_id,
    notifyKeyboard(settings),
  );
  if (result.kind !== "sent") {
    ctx.log.warn("telegram: notify buttons not updated", { kind: result.kind });
  }
  return { text, alert: false };
}
