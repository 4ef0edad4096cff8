/**
 * The buttons, menus and form of a pull request or issue notification. A press acts on what
 * the notification is about (its message ref), only when the tag its `custom_id` ends in is
 * that item's, and as `chatActionRefusal` allows (the route's `discordRoleIds`, the group's
 * binding to the repository); it runs as the presser's linked GitHub account. Merge asks for
 * the method and a confirmation first (an ephemeral message); Comment opens a form. Whatever
 * calls GitHub is deferred and completed by an edit.
 */
import type { APIModalInteractionResponseCallbackComponent } from "discord-api-types/v10";
import { ButtonStyle, ComponentType, TextInputStyle } from "../../format/discord_values.ts";
import { DISCORD_ACTION_IDS } from "../../format/discord.ts";
import { isRunActionId } from "../../format/run_buttons.ts";
import type { DiscordLink } from "../../store/auth/links.ts";
import { isIssueSubject, type MessageRef } from "../../store/delivery/message_refs.ts";
import {
  actAsLinkedUser,
  type ChatAction,
  MAX_COMMENT_LENGTH,
  MERGE_METHODS,
  type MergeMethod,
  parseMergeMethod,
} from "../act.ts";
import { parseReaction } from "../reactions.ts";
import { type IssueRef, refOf, refText } from "../../format/issue_ref.ts";
import { type DiscordDeps, type InteractionAnswer, now } from "./answer.ts";
import { type Interaction, submittedValue } from "./interaction.ts";
import { answerIssueForm, ISSUE_FORM } from "./issue.ts";
import { gatePress, splitTag, tagged } from "./press_gate.ts";
import { answerReviewForm, answerRunComponent, isReviewForm } from "./run_buttons.ts";
import {
  deferEphemeral,
  deferUpdate,
  editOriginal,
  ephemeral,
  modal,
  type Rows,
  updateMessage,
} from "./reply.ts";

/** The `custom_id`s of the confirmation and the form (each with the notification's id). */
const IDS = {
  mergeMethod: "gh:mm:",
  mergeDo: "gh:md:",
  cancel: "gh:cancel",
  commentForm: "gh:cm:",
  commentBody: "body",
} as const;

const METHOD_LABELS: ReadonlyMap<MergeMethod, string> = new Map([
  ["merge", "Create a merge commit"],
  ["squash", "Squash and merge"],
  ["rebase", "Rebase and merge"],
]);

type Gate =
  | { ok: true; ref: IssueRef; link: DiscordLink; notification: MessageRef }
  | { ok: false; answer: InteractionAnswer };

/** {@link gatePress} for the pull request or issue a notification is about. */
async function gate(
  deps: DiscordDeps,
  interaction: Interaction,
  messageId: string | undefined,
  tag: string | undefined,
): Promise<Gate> {
  const allowed = await gatePress(deps, interaction, messageId, tag, (subject) => {
    const ref = isIssueSubject(subject)
      ? refOf(subject.repository, subject.number, subject.kind)
      : null;
    return ref && { item: ref, name: refText(ref) };
  });
  if (!allowed.ok) return allowed;
  return { ok: true, ref: allowed.item, link: allowed.link, notification: allowed.notification };
}

/** Runs the action deferred: an ephemeral "thinking", then the result (or an edit in place). */
function deferred(
  deps: DiscordDeps,
  interaction: Interaction,
  allowed: Extract<Gate, { ok: true }>,
  action: ChatAction,
  inPlace = false,
): InteractionAnswer {
  return {
    response: inPlace ? deferUpdate() : deferEphemeral(),
    later: async () => {
      const reply = await actAsLinkedUser(deps, allowed.link.userId, allowed.ref, action);
      await editOriginal(deps, interaction.token, reply.text);
    },
  };
}

function mergeRows(messageId: string, method: MergeMethod, tag: string | undefined): Rows {
  return [
    {
      type: ComponentType.ActionRow,
      components: [{
        type: ComponentType.StringSelect,
        custom_id: tagged(`${IDS.mergeMethod}${messageId}`, tag),
        options: MERGE_METHODS.map((value) => ({
          label: METHOD_LABELS.get(value)!,
          value,
          default: value === method,
        })),
      }],
    },
    {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.Button,
          style: ButtonStyle.Success,
          label: "Merge",
          custom_id: tagged(`${IDS.mergeDo}${method}:${messageId}`, tag),
        },
        {
          type: ComponentType.Button,
          style: ButtonStyle.Secondary,
          label: "Cancel",
          custom_id: IDS.cancel,
        },
      ],
    },
  ];
}

function mergeQuestion(ref: IssueRef): string {
  return `Merge ${refText(ref)} as your GitHub account? Pick the method, then press Merge.`;
}

function commentForm(messageId: string, ref: IssueRef, tag: string | undefined) {
  const input: APIModalInteractionResponseCallbackComponent = {
    type: ComponentType.Label,
    label: "Comment",
    component: {
      type: ComponentType.TextInput,
      custom_id: IDS.commentBody,
      style: TextInputStyle.Paragraph,
      min_length: 1,
      max_length: 4000,
      required: true,
    },
  };
  return modal(tagged(`${IDS.commentForm}${messageId}`, tag), `Comment on ${refText(ref)}`, [
    input,
  ]);
}

/** Answers a press of a button or a choice in a menu. */
export async function answerComponent(
  deps: DiscordDeps,
  interaction: Interaction,
): Promise<InteractionAnswer> {
  const { id, tag } = splitTag(interaction.data?.custom_id ?? "");
  if (isRunActionId(id)) return await answerRunComponent(deps, interaction, id, tag);
  const onMessage = interaction.message?.id;
  const first = interaction.data?.values?.[0];
  const allowedOn = async (messageId: string | undefined) =>
    await gate(deps, interaction, messageId, tag);

  switch (id) {
    case DISCORD_ACTION_IDS.merge: {
      const allowed = await allowedOn(onMessage);
      if (!allowed.ok) return allowed.answer;
      return now(ephemeral(mergeQuestion(allowed.ref), mergeRows(onMessage!, "merge", tag)));
    }
    case DISCORD_ACTION_IDS.close:
    case DISCORD_ACTION_IDS.reopen: {
      const allowed = await allowedOn(onMessage);
      if (!allowed.ok) return allowed.answer;
      const kind = id === DISCORD_ACTION_IDS.close ? "close" : "reopen";
      return deferred(deps, interaction, allowed, { kind });
    }
    case DISCORD_ACTION_IDS.react: {
      const reaction = parseReaction(first);
      if (!reaction) return now(ephemeral("Pick one of GitHub's reactions."));
      const allowed = await allowedOn(onMessage);
      if (!allowed.ok) return allowed.answer;
      return deferred(deps, interaction, allowed, { kind: "react", reaction });
    }
    case DISCORD_ACTION_IDS.comment: {
      const allowed = await allowedOn(onMessage);
      if (!allowed.ok) return allowed.answer;
      return now(commentForm(onMessage!, allowed.ref, tag));
    }
    case IDS.cancel:
      return now(updateMessage("Nothing was merged."));
  }
  if (id.startsWith(IDS.mergeMethod)) {
    const messageId = id.slice(IDS.mergeMethod.length);
    const method = parseMergeMethod(first);
    const allowed = await allowedOn(messageId);
    if (!allowed.ok) return allowed.answer;
    if (!method) return now(ephemeral("The merge method is merge, squash or rebase."));
    return now(updateMessage(mergeQuestion(allowed.ref), mergeRows(messageId, method, tag)));
  }
  if (id.startsWith(IDS.mergeDo)) {
    const [method, messageId] = id.slice(IDS.mergeDo.length).split(":");
    const chosen = parseMergeMethod(method);
    if (!chosen) return now(ephemeral("The merge method is merge, squash or rebase."));
    const allowed = await allowedOn(messageId);
    if (!allowed.ok) return allowed.answer;
    return deferred(deps, interaction, allowed, { kind: "merge", method: chosen }, true);
  }
  return now(ephemeral("This button is not one Switchyard knows."));
}

/** Answers a form: the comment form, a deployment review's, or a new issue's. */
export async function answerModal(
  deps: DiscordDeps,
  interaction: Interaction,
): Promise<InteractionAnswer> {
  const { id, tag } = splitTag(interaction.data?.custom_id ?? "");
  if (isReviewForm(id)) return await answerReviewForm(deps, interaction, id, tag);
  if (id === ISSUE_FORM) return await answerIssueForm(deps, interaction);
  if (!id.startsWith(IDS.commentForm)) {
    return now(ephemeral("This form is not one Switchyard knows."));
  }
  const body = submittedValue(interaction.data?.components, IDS.commentBody) ?? "";
  if (body.trim().length === 0) return now(ephemeral("The comment is empty."));
  if (body.length > MAX_COMMENT_LENGTH) return now(ephemeral("The comment is too long."));
  const allowed = await gate(deps, interaction, id.slice(IDS.commentForm.length), tag);
  if (!allowed.ok) return allowed.answer;
  return deferred(deps, interaction, allowed, { kind: "comment", body });
}
