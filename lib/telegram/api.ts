/** Low-level calls to the Telegram Bot API. */
import { callJson, type CallOutcome } from "../http_client.ts";

/** What a Telegram call needs from the settings. */
export interface TelegramSettings {
  botToken?: string;
  apiUrl: string;
}

/**
 * Calls a Bot API method (e.g. `sendMessage`). Telegram wraps answers as
 * `{ ok, result }` or `{ ok: false, description, parameters }`; a success
 * answers the `result`, a refusal carries Telegram's `description`.
 */
export async function callTelegram<T>(
  settings: TelegramSettings,
  method: string,
  body: unknown,
): Promise<CallOutcome<T>> {
  const outcome = await callJson<{ ok: boolean; result: T }>(
    `${settings.apiUrl}/bot${settings.botToken}/${method}`,
    { body },
    (answer) =>
      answer && typeof answer === "object" && "description" in answer
        ? String((answer as { description: unknown }).description)
        : undefined,
  );
  if (outcome.kind !== "ok") return outcome;
  return { ...outcome, body: outcome.body.result };
}
