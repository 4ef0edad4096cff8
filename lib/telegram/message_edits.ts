/**
 * The Telegram calls of noise control beyond posting (docs/noise.md): editing a message's
 * text (digests, thread cards).
 */
import type { TelegramMessageBody } from "../format/telegram.ts";
import type { CallOutcome } from "../http_client.ts";
import { platformDelayMs } from "../platform/platform_delay.ts";
import { refusalResult, type SendResult } from "../platform/send_result.ts";
import { callTelegram, type TelegramSettings } from "./api.ts";

/** Telegram's answer when an edit would change nothing: the message already shows it. */
const NOT_MODIFIED = /message is not modified/i;

function resultOf(outcome: CallOutcome<{ message_id?: number } | true>): SendResult {
  if (outcome.kind === "unreachable") return { kind: "retryable", error: outcome.message };
  if (outcome.kind === "ok") {
    const id = typeof outcome.body === "object" ? outcome.body?.message_id : undefined;
    return {
      kind: "sent",
      httpStatus: outcome.status,
      messageId: id === undefined ? undefined : String(id),
    };
  }
  if (outcome.status === 400 && NOT_MODIFIED.test(outcome.message)) {
    return { kind: "sent", httpStatus: 200 };
  }
  if (outcome.status === 429) {
    const body = outcome.body as { parameters?: { retry_after?: unknown } } | null;
    const delayMs = platformDelayMs(body?.parameters?.retry_after);
    if (delayMs !== null) {
      return {
        kind: "rate_limited",
        httpStatus: 429,
        retryAfterMs: delayMs,
        global: false,
        error: outcome.message,
      };
    }
  }
  return refusalResult(outcome.status, outcome.message);
}

/** Replaces the text (and buttons) of message `messageId` in `chatId` (`editMessageText`). */
export async function editTelegramMessage(
  settings: TelegramSettings,
  chatId: string,
  messageId: string,
  body: TelegramMessageBody,
): Promise<SendResult> {
  return resultOf(
    await callTelegram<{ message_id?: number } | true>(settings, "editMessageText", {
      chat_id: chatId,
      message_id: Number(messageId),
      text: body.text,
      parse_mode: body.parse_mode,
      link_preview_options: { is_disabled: true },
      ...(body.reply_markup === undefined ? {} : { reply_markup: body.reply_markup }),
    }),
  );
}
