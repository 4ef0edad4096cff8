/**
 * `/gh remind` in a Discord server channel (a thread stands for its channel): a channel review
 * reminder of the group that posts there, for its owners and admins (`settings`: the same words
 * as in Telegram, `mon-fri 09:00 Europe/Berlin older 24 allclear`, or `list`, or
 * `delete <id>`); in a direct message with the bot, a personal reminder of the linked person,
 * sent to that DM. `lib/chatops/remind.ts` does the rest. Answers are ephemeral.
 */
import { ApplicationCommandOptionType } from "../../format/discord_values.ts";
import { getDiscordLink } from "../../store/auth/links.ts";
import { notLinkedText } from "../act.ts";
import { runRemind } from "../remind.ts";
import { type DiscordDeps, type InteractionAnswer, now } from "./answer.ts";
import {
  channelForClaim,
  type CommandOption,
  type Interaction,
  invokerOf,
  stringOption,
} from "./interaction.ts";
import { ephemeral } from "./reply.ts";

/** The definition of `remind` for the `/gh` command. */
export const REMIND_COMMAND_OPTION = {
  type: ApplicationCommandOptionType.Subcommand,
  name: "remind",
  description: "Review reminders (this channel's group, or yours in a DM): <days> <times> <zone>",
  options: [{
    type: ApplicationCommandOptionType.String,
    name: "settings",
    description: "e.g. mon-fri 09:00 Europe/Berlin older 24 allclear; or list; or delete <id>",
    required: true,
    max_length: 200,
  }],
};

/** Answers `/gh remind`. */
export async function answerRemind(
  deps: DiscordDeps,
  interaction: Interaction,
  options: Map<string, CommandOption>,
): Promise<InteractionAnswer> {
  const channelId = channelForClaim(interaction);
  const invoker = invokerOf(interaction);
  if (!invoker) return now(ephemeral("Set reminders as yourself."));
  const direct = !interaction.guild_id;
  if (!direct && !channelId) {
    return now(ephemeral("Set a channel's reminders from a server channel."));
  }
  const link = await getDiscordLink(deps.kv, invoker.id);
  if (!link) return now(ephemeral(notLinkedText()));
  // In a DM the reminder names the user; its DM channel is found when it is sent.
  const target = { platform: "discord" as const, channelId: direct ? invoker.id : channelId! };
  const reply = await runRemind(
    deps.kv,
    { userId: link.userId, login: link.login },
    { private: direct, target },
    stringOption(options, "settings") ?? "",
    Date.now(),
  );
  return now(ephemeral(reply));
}
