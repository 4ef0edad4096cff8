/**
 * `/gh remind` in a Discord server channel (a thread stands for its channel): a channel review
 * reminder of the group that posts there, for its owners and admins (`settings`: the same words
 * as in Telegram, `mon-fri 09:00 Europe/Berlin older 24 allclear`, or `list`, or
 * `delete <id>`); `lib/chatops/remind.ts` does the rest. Personal reminders go to the private
 * chat with the Telegram bot, so a direct message here points there. Answers are ephemeral.
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
  description: "Review reminders of this channel's group: <days> <times> <time zone>, list, delete",
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
  if (!interaction.guild_id || !channelId || !invoker) {
    return now(ephemeral(
      "Set a channel's reminders from a server channel. Personal reminders: /gh remind in the " +
        "private chat with the Telegram bot, or the console's account page.",
    ));
  }
  const link = await getDiscordLink(deps.kv, invoker.id);
  if (!link) return now(ephemeral(notLinkedText()));
  const reply = await runRemind(
    deps.kv,
    { userId: link.userId, login: link.login },
    { private: false, target: { platform: "discord", channelId } },
    stringOption(options, "settings") ?? "",
    Date.now(),
  );
  return now(ephemeral(reply));
}
