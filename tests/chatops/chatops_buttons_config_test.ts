/** Which platforms' notifications carry chat-ops buttons, decided from the settings. */
import assert from "node:assert/strict";
import { chatButtonsOf } from "../../lib/delivery/render.ts";
import { BUTTONS_ENV } from "../_delivery_helpers.ts";
import { testConfig } from "../_helpers.ts";

Deno.test("buttons follow the settings that let a press reach the app", () => {
  assert.deepEqual(chatButtonsOf(testConfig()), { discord: false, telegram: false });
  assert.deepEqual(chatButtonsOf(testConfig({ TELEGRAM_BOT_TOKEN: "1:t", ...BUTTONS_ENV })), {
    discord: true,
    telegram: true,
  });
  const discordOnly = testConfig({
    DISCORD_APPLICATION_ID: BUTTONS_ENV.DISCORD_APPLICATION_ID,
    DISCORD_PUBLIC_KEY: BUTTONS_ENV.DISCORD_PUBLIC_KEY,
  });
  assert.deepEqual(chatButtonsOf(discordOnly), { discord: true, telegram: false });
  const secretWithoutBot = testConfig({
    TELEGRAM_WEBHOOK_SECRET: BUTTONS_ENV.TELEGRAM_WEBHOOK_SECRET,
  });
  assert.equal(chatButtonsOf(secretWithoutBot).telegram, false);
});
