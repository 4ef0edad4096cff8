/**
 * Points the Telegram bot at this deployment, from the same settings as the app:
 *
 *   deno task telegram:setup
 *
 * sets the webhook (BASE_URL + /telegram/webhook, with TELEGRAM_WEBHOOK_SECRET as the secret
 * token) and the bot's command list.
 */
import { setUpTelegram } from "../lib/chatops/telegram/setup.ts";
import { ConfigError, loadConfig } from "../lib/config.ts";

try {
  const config = loadConfig({ KV_PATH: ":memory:", ...Deno.env.toObject() });
  const result = await setUpTelegram(config);
  console.log(result.text);
  if (!result.ok) Deno.exit(1);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  Deno.exit(1);
}
