/**
 * `/gh resume` in a Discord channel or thread: the invoker must be linked to a GitHub account
 * that owns or administers the group paused here; `lib/chatops/resume.ts` does the rest. In a
 * thread it covers the thread and its channel. The answer is ephemeral.
 */
import { getDiscordLink } from "../../store/auth/links.ts";
import { notLinkedText } from "../act.ts";
import { resumeFromChat } from "../resume.ts";
import { type DiscordDeps, type InteractionAnswer, now } from "./answer.ts";
import { channelForClaim, type Interaction, invokerOf } from "./interaction.ts";
import { ephemeral } from "./reply.ts";

/** Answers `/gh resume`. */
export async function answerResume(
  deps: DiscordDeps,
  interaction: Interaction,
): Promise<InteractionAnswer> {
  const here = interaction.channel_id;
  const channelId = channelForClaim(interaction);
  const invoker = invokerOf(interaction);
  if (!interaction.guild_id || !here || !channelId || !invoker) {
    return now(ephemeral("Resume from the server channel that is paused, not a direct message."));
  }
  const link = await getDiscordLink(deps.kv, invoker.id);
  if (!link) return now(ephemeral(notLinkedText()));
  const targetKeys = [...new Set([`discord:${here}`, `discord:${channelId}`])];
  const reply = await resumeFromChat(
    deps.kv,
    { userId: link.userId, login: link.login },
    { chat: { platform: "discord", channelId }, targetKeys, name: "this channel" },
  );
  return now(ephemeral(reply.text));
}
