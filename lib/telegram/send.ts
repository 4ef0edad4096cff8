/** Sending a rendered message to a Telegram chat, in its topic when the target names one. */
import { platformDelayMs } from "../platform/platform_delay.ts";
import type { SendResult } from "../platform/send_result.ts";
import { refusalResult } from "../platform/send_result.ts";
import type { TelegramMessageBody } from "../format/telegram.ts";
import type { Target } from "../types.ts";
import type { CallOutcome } from "../http_client.ts";
import { callTelegram, type TelegramSettings } from "./api.ts";

interface TelegramRefusal {
  parameters?: { retry_after?: unknown };
}

/**
 * Calls `sendMessage` with the renderer's HTML text (link previews off) and buttons, if any,
 * for `target`: `chat_id`, and `message_thread_id` for a forum topic.
 */
export async function sendTelegramMessage(
  settings: TelegramSettings,
  target: Extract<Target, { platform: "telegram" }>,
  body: TelegramMessageBody,
): Promise<SendResult> {
  const parameters = {
    chat_id: target.chatId,
    ...(target.topicId === undefined ? {} : { message_thread_id: target.topicId }),
    text: body.text,
    parse_mode: body.parse_mode,
    link_preview_options: { is_disabled: true },
    ...(body.reply_markup === undefined ? {} : { reply_markup: body.reply_markup }),
    ...(body.reply_parameters === undefined ? {} : { reply_parameters: body.reply_parameters }),
  };
  const outcome = await callTelegram<{ message_id?: number }>(settings, "sendMessage", parameters);
  return telegramResultOf(outcome);
}

/**
 * What a Telegram message call came to: sent (with the message id), rate limited (the wait its
 * `parameters.retry_after` asks for), worth a retry, or refused.
 */
export function telegramResultOf(outcome: CallOutcome<{ message_id?: number }>): SendResult {
  if (outcome.kind === "unreachable") return { kind: "retryable", error: outcome.message };
  if (outcome.kind === "ok") {
    const id = outcome.body?.message_id;
    return {
      kind: "sent",
      httpStatus: outcome.status,
      messageId: id === undefined ? undefined : String(id),
    };
  }
  if (outcome.status === 429) {
    const refusal = typeof outcome.body === "object"
      ? outcome.body as TelegramRefusal | null
      : null;
    const delayMs = platformDelayMs(refusal?.parameters?.retry_after);
    if (delayMs === null) return { kind: "retryable", httpStatus: 429, error: outcome.message };
    return {
      kind: "rate_limited",
      httpStatus: 429,
      retryAfterMs: delayMs,
      global: false,
      error: outcome.message,
    };
  }
  return refusalResult(outcome.status, outcome.message);
}
