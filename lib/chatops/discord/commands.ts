/**
 * The `/gh` application command: link, unlink, whoami, the GitHub actions on a `<ref>`
 * (comment, merge, close, reopen, react), opening an issue (a form asks for its body),
 * subscribe and unsubscribe, resuming a paused channel, and autocomplete of refs
 * from the channel's recent notifications. Every answer is ephemeral: only the invoker sees it.
 * Actions on GitHub pass `chatActionRefusal` first (the channel's route roles, the repository's
 * binding to the groups posting there), answer with a deferral and complete with an edit.
 */
import {
  chatLinkAudit,
  deleteDiscordLink,
  type DiscordLink,
  getDiscordLink,
} from "../../store/auth/links.ts";
import { startChatLink } from "../../auth/chat_link.ts";
import { isIssueSubject, recentMessageRefs } from "../../store/delivery/message_refs.ts";
import { actAsLinkedUser, type ChatAction, notLinkedText, parseMergeMethod } from "../act.ts";
import { chatActionRefusal } from "../authorize.ts";
import { parseReaction, reactionList } from "../reactions.ts";
import { parseRef, refText } from "../../format/issue_ref.ts";
import { subscribeChat, unsubscribeChat } from "../subscribe.ts";
import { type DiscordDeps, type InteractionAnswer, now } from "./answer.ts";
import {
  canManageChannels,
  channelForClaim,
  type CommandOption,
  discordPlace,
  type Interaction,
  invokerOf,
  stringOption,
  subcommandOf,
} from "./interaction.ts";
import { answerIssueCommand } from "./issue.ts";
import { answerMute, MUTE_SUBCOMMANDS } from "./mute.ts";
import { answerNotify } from "./notify.ts";
import { answerRemind } from "./remind.ts";
import { answerResume } from "./resume.ts";
import { choices, deferEphemeral, editOriginal, ephemeral } from "./reply.ts";

/** The one command's name. */
export const COMMAND_NAME = "gh";

const UNKNOWN = "Unknown command. Try /gh whoami, /gh link, or /gh merge owner/repo#123.";

/** Runs `action` on the ref option as the invoker's linked account, deferred, when allowed. */
async function runAction(
  deps: DiscordDeps,
  interaction: Interaction,
  link: DiscordLink | null,
  refInput: string | undefined,
  action: ChatAction,
): Promise<InteractionAnswer> {
  const parsed = parseRef(refInput);
  if (!parsed.ok) return now(ephemeral(parsed.error));
  const refusal = await chatActionRefusal(
    deps.kv,
    discordPlace(interaction),
    { kind: "named", ref: parsed.ref },
    new Set(interaction.member?.roles ?? []),
  );
  if (refusal !== null) return now(ephemeral(refusal));
  if (!link) return now(ephemeral(notLinkedText()));
  return {
    response: deferEphemeral(),
    later: async () => {
      const reply = await actAsLinkedUser(deps, link.userId, parsed.ref, action);
      await editOriginal(deps, interaction.token, reply.text);
    },
  };
}

function actionOf(name: string, options: Map<string, CommandOption>): ChatAction | string {
  switch (name) {
    case "comment": {
      const body = stringOption(options, "text") ?? "";
      return { kind: "comment", body };
    }
    case "merge": {
      const given = stringOption(options, "method");
      if (given === undefined) return { kind: "merge" };
      const method = parseMergeMethod(given);
      return method ? { kind: "merge", method } : "The merge method is merge, squash or rebase.";
    }
    case "close":
      return { kind: "close" };
    case "reopen":
      return { kind: "reopen" };
    case "react": {
      const reaction = parseReaction(stringOption(options, "emoji"));
      return reaction ? { kind: "react", reaction } : `GitHub's reactions are ${reactionList()}.`;
    }
    default:
      return UNKNOWN;
  }
}

async function link(deps: DiscordDeps, interaction: Interaction): Promise<InteractionAnswer> {
  const invoker = invokerOf(interaction)!;
  if (!deps.config.github.clientId || !deps.config.github.clientSecret) {
    return now(ephemeral("GitHub sign-in is not set up on this Switchyard; ask its operator."));
  }
  const url = await startChatLink(deps.kv, deps.config, {
    platform: "discord",
    chatUserId: invoker.id,
    username: invoker.username,
    interactionToken: interaction.token,
  });
  return now(ephemeral(
    `Link your Discord account to GitHub: ${url}\n` +
      "This link is for you alone and works once, for 10 minutes. Whoever signs in with it " +
      "becomes the GitHub account that acts for you here, so never share it.",
  ));
}

async function unlink(deps: DiscordDeps, userId: string): Promise<InteractionAnswer> {
  const existing = await getDiscordLink(deps.kv, userId);
  if (!existing) return now(ephemeral("Your Discord account is not linked to GitHub."));
  await deleteDiscordLink(
    deps.kv,
    userId,
    (link) => chatLinkAudit("link.delete", link, "discord", userId, "chat"),
  );
  return now(ephemeral(
    `Unlinked from the GitHub account ${existing.login}. Switchyard no longer acts for you from ` +
      "Discord. To also revoke its access on GitHub, open GitHub → Settings → Applications → " +
      "Authorized GitHub Apps and revoke Switchyard.",
  ));
}

async function subscription(
  deps: DiscordDeps,
  interaction: Interaction,
  link: DiscordLink | null,
  name: "subscribe" | "unsubscribe",
  groupId: string | undefined,
): Promise<InteractionAnswer> {
  const channelId = channelForClaim(interaction);
  if (!interaction.guild_id || !channelId) {
    return now(ephemeral("Subscribe from a server channel, not a direct message."));
  }
  if (!canManageChannels(interaction)) {
    return now(ephemeral(`Only members with Manage Channels may ${name} this channel.`));
  }
  if (!link) return now(ephemeral(notLinkedText()));
  const actor = { userId: link.userId, login: link.login };
  const target = { platform: "discord" as const, channelId };
  const reply = name === "subscribe"
    ? await subscribeChat(deps.kv, actor, groupId ?? "", target)
    : await unsubscribeChat(deps.kv, actor, groupId ?? "", target);
  return now(ephemeral(reply.text));
}

/** Answers a `/gh` command. */
export async function answerCommand(
  deps: DiscordDeps,
  interaction: Interaction,
): Promise<InteractionAnswer> {
  const invoker = invokerOf(interaction);
  const sub = subcommandOf(interaction);
  if (!invoker || interaction.data?.name !== COMMAND_NAME || !sub) return now(ephemeral(UNKNOWN));
  if (MUTE_SUBCOMMANDS.has(sub.name)) {
    return await answerMute(deps, interaction, sub.name, sub.options);
  }
  switch (sub.name) {
    case "link":
      return await link(deps, interaction);
    case "unlink":
      return await unlink(deps, invoker.id);
    case "whoami": {
      const existing = await getDiscordLink(deps.kv, invoker.id);
      return now(ephemeral(
        existing
          ? `Your Discord account is linked to the GitHub account ${existing.login}.`
          : "Your Discord account is not linked to GitHub; run /gh link to link it.",
      ));
    }
    case "issue":
      return await answerIssueCommand(deps, interaction, sub.options);
    case "notify":
      return await answerNotify(deps, invoker.id, stringOption(sub.options, "state"));
    case "remind":
      return await answerRemind(deps, interaction, sub.options);
    case "resume":
      return await answerResume(deps, interaction);
    case "subscribe":
    case "unsubscribe":
      return await subscription(
        deps,
        interaction,
        await getDiscordLink(deps.kv, invoker.id),
        sub.name,
        stringOption(sub.options, "group"),
      );
  }
  const action = actionOf(sub.name, sub.options);
  if (typeof action === "string") return now(ephemeral(action));
  const linked = await getDiscordLink(deps.kv, invoker.id);
  return await runAction(deps, interaction, linked, stringOption(sub.options, "ref"), action);
}

/** Suggests refs from the channel's recent notifications, filtered by what was typed. */
export async function answerAutocomplete(
  deps: DiscordDeps,
  interaction: Interaction,
): Promise<InteractionAnswer> {
  const sub = subcommandOf(interaction);
  const focused = sub && [...sub.options.values()].find((option) => option.focused);
  if (!focused || focused.name !== "ref" || !interaction.channel_id) return now(choices([]));
  const typed = String(focused.value ?? "").toLowerCase().slice(0, 100);
  const refs = await recentMessageRefs(deps.kv, "discord", interaction.channel_id, 50);
  const seen = new Set<string>();
  const items: { name: string; value: string }[] = [];
  for (const ref of refs) {
    if (!isIssueSubject(ref.subject)) continue;
    const [owner, repo] = ref.subject.repository.split("/");
    const value = refText({ owner, repo, number: ref.subject.number });
    if (seen.has(value) || !value.toLowerCase().includes(typed)) continue;
    seen.add(value);
    const kind = ref.subject.kind === "pull" ? "pull request" : "issue";
    items.push({ name: `${value} (${kind})`.slice(0, 100), value: value.slice(0, 100) });
  }
  return now(choices(items));
}
