/** Registering `/gh` with Discord: the bulk overwrite it sends, globally or in one server. */
import assert from "node:assert/strict";
import { COMMANDS } from "../../lib/chatops/discord/command_definition.ts";
import { registerCommands } from "../../lib/chatops/discord/register.ts";
import { testConfig } from "../_helpers.ts";
import { startFakeDiscordWebhooks } from "../discord_fake.ts";

const APP_ID = "100000000000000001";

Deno.test("registerCommands overwrites the commands globally or in one server", async () => {
  await using fake = startFakeDiscordWebhooks();
  const config = testConfig({
    DISCORD_APPLICATION_ID: APP_ID,
    DISCORD_PUBLIC_KEY: "a".repeat(64),
    DISCORD_BOT_TOKEN: "bot-token",
    DISCORD_API_URL: fake.url,
  });
  assert.deepEqual(await registerCommands(config), {
    ok: true,
    text: "Registered /gh globally (may take up to an hour to show).",
  });
  assert.deepEqual(await registerCommands(config, "200000000000000002"), {
    ok: true,
    text: "Registered /gh in server 200000000000000002.",
  });
  assert.deepEqual(fake.calls.map((call) => [call.method, call.path]), [
    ["PUT", `/applications/${APP_ID}/commands`],
    ["PUT", `/applications/${APP_ID}/guilds/200000000000000002/commands`],
  ]);
  assert.equal(fake.calls[0].headers.get("authorization"), "Bot bot-token");
  assert.deepEqual(fake.calls[0].body, COMMANDS);
  assert.equal((await registerCommands(config, "../x")).ok, false);
  assert.equal(fake.calls.length, 2, "a bad server id is not sent");
  const unset = await registerCommands(testConfig());
  assert.deepEqual(unset, {
    ok: false,
    text: "Set DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN first.",
  });
});

Deno.test("the /gh command fits Discord's rules for names, descriptions and options", () => {
  const [command] = COMMANDS as unknown as {
    name: string;
    description: string;
    options: { name: string; description: string; options: Record<string, unknown>[] }[];
  }[];
  assert.equal(command.name, "gh");
  const names = command.options.map((option) => option.name);
  assert.deepEqual(names, [
    "link",
    "unlink",
    "whoami",
    "comment",
    "merge",
    "close",
    "reopen",
    "react",
    "issue",
    "subscribe",
    "unsubscribe",
    "mute",
    "unmute",
    "filters",
    "resume",
    "notify",
    "remind",
  ]);
  for (
    const option of [
      command,
      ...command.options,
      ...command.options.flatMap((o) => o.options),
    ]
  ) {
    assert.match(String(option.name), /^[-_a-z0-9]{1,32}$/);
    assert.ok(String(option.description).length >= 1 && String(option.description).length <= 100);
  }
});
