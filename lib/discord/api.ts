/** Low-level calls to Discord's REST API as the bot. */
import { callJson, type CallOutcome } from "../http_client.ts";

/** What a Discord call needs from the settings. */
export interface DiscordSettings {
  botToken?: string;
  apiUrl: string;
}

/** Calls `path` (e.g. `/channels/1/messages`) on Discord's API with the bot token. */
export function callDiscord<T>(
  settings: DiscordSettings,
  method: string,
  path: string,
  body?: unknown,
): Promise<CallOutcome<T>> {
  return callJson<T>(`${settings.apiUrl}${path}`, {
    method,
    body,
    headers: {
      authorization: `Bot ${settings.botToken}`,
      "user-agent": "DiscordBot (switchyard, 1.0)",
    },
  });
}
