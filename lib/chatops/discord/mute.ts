/**
 * `/gh mute`, `/gh unmute` (options `what`: author, label or bots, and `value`) and
 * `/gh filters` in a Discord channel (a thread stands for its channel). The invoker must be
 * linked to a GitHub account that owns or administers a group posting into the channel;
 * `lib/chatops/mute.ts` does the rest. Answers are ephemeral.
 */
import type { APIApplicationCommandBasicOption } from "discord-api-types/v10";
import { ApplicationCommandOptionType } from "../../format/discord_values.ts";
import { getDiscordLink } from "../../store/auth/links.ts";
import { notLinkedText } from "../act.ts";
import { MAX_LABEL_LENGTH, type MuteRequest, parseMuteSubject, runMuteRequest } from "../mute.ts";
import { type DiscordDeps, type InteractionAnswer, now } from "./answer.ts";
import {
  channelForClaim,
  type CommandOption,
  type Interaction,
  invokerOf,
  stringOption,
} from "./interaction.ts";
import { ephemeral } from "./reply.ts";

/** The subcommands this module answers. */
export const MUTE_SUBCOMMANDS: ReadonlySet<string> = new Set(["mute", "unmute", "filters"]);

const muteOptions: APIApplicationCommandBasicOption[] = [
  {
    type: ApplicationCommandOptionType.String,
    name: "what",
    description: "An author, a label, or every bot",
    required: true,
    choices: ["author", "label", "bots"].map((name) => ({ name, value: name })),
  },
  {
    type: ApplicationCommandOptionType.String,
    name: "value",
    description: "The author's GitHub login or the label's name (nothing for bots)",
    max_length: MAX_LABEL_LENGTH,
  },
];

/** The definitions of `mute`, `unmute` and `filters` for the `/gh` command. */
export const MUTE_COMMAND_OPTIONS = [
  {
    type: ApplicationCommandOptionType.Subcommand,
    name: "mute",
    description: "Stop this channel's routes from posting an author's, a label's or bots' events",
    options: muteOptions,
  },
  {
    type: ApplicationCommandOptionType.Subcommand,
    name: "unmute",
    description: "Take a mute off this channel's routes",
    options: muteOptions,
  },
  {
    type: ApplicationCommandOptionType.Subcommand,
    name: "filters",
    description: "List what this channel's routes mute",
    options: [],
  },
];

/** Answers `/gh mute`, `/gh unmute` or `/gh filters`. */
export async function answerMute(
  deps: DiscordDeps,
  interaction: Interaction,
  name: string,
  options: Map<string, CommandOption>,
): Promise<InteractionAnswer> {
  const channelId = channelForClaim(interaction);
  const invoker = invokerOf(interaction);
  if (!interaction.guild_id || !channelId || !invoker) {
    return now(ephemeral("Change filters from a server channel, not a direct message."));
  }
  let request: MuteRequest;
  if (name === "filters") {
    request = { verb: "filters" };
  } else {
    const subject = parseMuteSubject(
      stringOption(options, "what") ?? "",
      stringOption(options, "value") ?? "",
    );
    if (typeof subject === "string") return now(ephemeral(subject));
    request = { verb: name === "unmute" ? "unmute" : "mute", subject };
  }
  const link = await getDiscordLink(deps.kv, invoker.id);
  if (!link) return now(ephemeral(notLinkedText()));
  const reply = await runMuteRequest(
    deps.kv,
    { userId: link.userId, login: link.login },
    { platform: "discord", channelId },
    request,
  );
  return now(ephemeral(reply.text));
}
