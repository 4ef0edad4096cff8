/**
 * Registers the `/gh` command with Discord (bulk overwrite), from the same settings as the app:
 *
 *   deno task discord:commands                 # global
 *   deno task discord:commands --guild <id>    # one server, shown at once (for testing)
 */
import { registerCommands } from "../lib/chatops/discord/register.ts";
import { ConfigError, loadConfig } from "../lib/config.ts";

function guildOf(args: string[]): string | undefined {
  const index = args.indexOf("--guild");
  return index >= 0 ? args[index + 1] ?? "" : undefined;
}

try {
  const config = loadConfig({ KV_PATH: ":memory:", ...Deno.env.toObject() });
  const result = await registerCommands(config, guildOf(Deno.args));
  console.log(result.text);
  if (!result.ok) Deno.exit(1);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  Deno.exit(1);
}
