/** `deno task telegram:setup`: the webhook and the command list, or why not. */
import assert from "node:assert/strict";
import { setUpTelegram } from "../../lib/chatops/telegram/setup.ts";
import { testConfig } from "../_helpers.ts";
import { startFakeBot } from "../telegram_fake_bot.ts";

const SETTINGS = {
  TELEGRAM_BOT_TOKEN: "123456:test-token",
  TELEGRAM_WEBHOOK_SECRET: "secret_1",
  BASE_URL: "https://relay.example",
};

Deno.test("sets the webhook with the secret token and the updates read, then the commands", async () => {
  await using bot = startFakeBot();
  const result = await setUpTelegram(testConfig({ ...SETTINGS, TELEGRAM_API_URL: bot.url }));
  assert.deepEqual(result, {
    ok: true,
    text: "Webhook set to https://relay.example/telegram/webhook " +
      "(updates: message, callback_query); command /gh registered.",
  });
  assert.deepEqual(bot.callsOf("setWebhook"), [{
    url: "https://relay.example/telegram/webhook",
    secret_token: "secret_1",
    allowed_updates: ["message", "callback_query"],
  }]);
  assert.deepEqual(
    bot.callsOf("setMyCommands")[0].commands,
    [{
      command: "gh",
      description: "Switchyard: login, whoami, comment, merge, close, react, subscribe",
    }],
  );
});

Deno.test("refuses without the settings, without https, or when Telegram refuses", async () => {
  await using bot = startFakeBot();
  const missing = await setUpTelegram(testConfig({ TELEGRAM_API_URL: bot.url }));
  assert.deepEqual(missing, {
    ok: false,
    text: "Set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET first.",
  });
  const local = await setUpTelegram(
    testConfig({ ...SETTINGS, BASE_URL: "http://localhost:8000", TELEGRAM_API_URL: bot.url }),
  );
  assert.equal(local.ok, false);
  assert.match(local.text, /BASE_URL must be https/);
  bot.script("setWebhook", { status: 400, description: "Bad Request: bad webhook" });
  const refused = await setUpTelegram(testConfig({ ...SETTINGS, TELEGRAM_API_URL: bot.url }));
  assert.deepEqual(refused, { ok: false, text: "setWebhook failed: Bad Request: bad webhook" });
  assert.equal(bot.callsOf("setMyCommands").length, 0);
});
