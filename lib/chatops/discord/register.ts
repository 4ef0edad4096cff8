/**
 * Registering the `/gh` command with Discord: a bulk overwrite of the application's commands,
 * global, or in one server for testing (server commands update at once).
 */
import type { Config } from "../../config.ts";
import { callDiscord } from "../../discord/api.ts";
import { COMMANDS } from "./command_definition.ts";

/** What a registration came to, in words for the terminal. */
type RegisterResult = { ok: true; text: string } | { ok: false; text: string };

const SNOWFLAKE = /^\d{1,20}$/;

/** Overwrites the application's commands with `/gh` (in `guildId` only, when given). */
export async function registerCommands(config: Config, guildId?: string): Promise<RegisterResult> {
  const { applicationId, botToken } = config.discord;
  if (!applicationId || !botToken) {
    return { ok: false, text: "Set DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN first." };
  }
  if (guildId !== undefined && !SNOWFLAKE.test(guildId)) {
    return { ok: false, text: `"${guildId}" is not a server id.` };
  }
  const path = guildId
    ? `/applications/${applicationId}/guilds/${guildId}/commands`
    : `/applications/${applicationId}/commands`;
  const outcome = await callDiscord<{ id: string; name: string }[]>(
    config.discord,
    "PUT",
    path,
    COMMANDS,
  );
  const where = guildId ? `in server ${guildId}` : "globally (may take up to an hour to show)";
  switch (outcome.kind) {
    case "ok":
      return {
        ok: true,
        text: `Registered ${
          outcome.body.map((command) => `/${command.name}`).join(", ")
        } ${where}.`,
      };
    case "refused":
      return { ok: false, text: `Discord refused (${outcome.status}): ${outcome.message}` };
    case "unreachable":
      return { ok: false, text: `Discord could not be reached: ${outcome.message}` };
  }
}
