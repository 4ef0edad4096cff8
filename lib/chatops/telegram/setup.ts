/**
 * Pointing the bot at this deployment (`deno task telegram:setup`): `setWebhook` with the
 * webhook address under BASE_URL, the secret token and the updates chat-ops reads, then
 * `setMyCommands` so chats offer `/gh`.
 */
import type { Config } from "../../config.ts";
import { callTelegram } from "../../telegram/api.ts";

/** What the setup came to, in words for the terminal. */
interface SetupResult {
  ok: boolean;
  text: string;
}

/** The updates the webhook asks Telegram for. */
const ALLOWED_UPDATES = ["message", "callback_query"] as const;

/** The command list chats show. */
const BOT_COMMANDS = [
  {
    command: "gh",
    description: "Switchyard: login, whoami, comment, merge, close, react, subscribe",
  },
];

/** Ports Telegram delivers webhooks to. */
const WEBHOOK_PORTS = new Set(["", "80", "88", "443", "8443"]);

/** Sets the webhook and the command list; stops at the first refusal. */
export async function setUpTelegram(config: Config): Promise<SetupResult> {
  const { botToken, webhookSecret } = config.telegram;
  if (!botToken || !webhookSecret) {
    return { ok: false, text: "Set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET first." };
  }
  const base = new URL(config.baseUrl);
  if (base.protocol !== "https:" || !WEBHOOK_PORTS.has(base.port)) {
    return {
      ok: false,
      text: `BASE_URL must be https on port 443, 80, 88 or 8443 for Telegram, not ${base.origin}.`,
    };
  }
  const url = `${config.baseUrl}/telegram/webhook`;
  const webhook = await callTelegram(config.telegram, "setWebhook", {
    url,
    secret_token: webhookSecret,
    allowed_updates: ALLOWED_UPDATES,
  });
  if (webhook.kind !== "ok") return { ok: false, text: `setWebhook failed: ${webhook.message}` };
  const commands = await callTelegram(config.telegram, "setMyCommands", {
    commands: BOT_COMMANDS,
  });
  if (commands.kind !== "ok") {
    return { ok: false, text: `Webhook set to ${url}; setMyCommands failed: ${commands.message}` };
  }
  return {
    ok: true,
    text: `Webhook set to ${url} (updates: ${ALLOWED_UPDATES.join(", ")}); command /gh registered.`,
  };
}
