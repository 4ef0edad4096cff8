/**
 * The buttons of workflow run and deployment review notifications on Discord. Re-run failed
 * jobs, Re-run all and Cancel act on the card's run as the presser's linked account and answer
 * only the presser (the card itself follows the run's next events). Approve and Reject open a
 * form for an optional comment; its submission reviews the deployments waiting for the card's
 * environment and, when GitHub accepts, edits the card to say who decided (its buttons give
 * way to a link to the run); a refusal is shown to the presser alone. Each press passes
 * {@link gatePress}: the notification is known, its tag names the run, the route's roles and
 * the group's binding allow it, and the presser is linked.
 */
import type { APIModalInteractionResponseCallbackComponent } from "discord-api-types/v10";
import { ButtonStyle, ComponentType, TextInputStyle } from "../../format/discord_values.ts";
import { RUN_ACTION_IDS, type RunActionId } from "../../format/run_buttons.ts";
import { noteReviewDecision, type NotificationSubject } from "../../store/delivery/message_refs.ts";
import {
  actOnRunAsLinkedUser,
  type RunAction,
  type RunRef,
  runRefOf,
  runText,
} from "../run_act.ts";
import { type DiscordDeps, type InteractionAnswer, now } from "./answer.ts";
import { gatePress, tagged } from "./press_gate.ts";
import { type Interaction, submittedValue } from "./interaction.ts";
import {
  deferEphemeral,
  deferUpdate,
  editOriginal,
  ephemeral,
  followUp,
  modal,
  type Rows,
} from "./reply.ts";

/** The `custom_id`s of the review form (with the notification's id) and its comment input. */
const FORM = {
  approve: "gh:da:",
  reject: "gh:dr:",
  comment: "comment",
} as const;

/** Longest review comment the form takes. */
const MAX_FORM_COMMENT = 1000;

/** What a run button acts on: a workflow run (`run`) or a deployment review (`deployment`). */
function itemOf(kind: NotificationSubject["kind"]) {
  return (subject: NotificationSubject) => {
    if (subject.kind !== kind || (kind !== "run" && kind !== "deployment")) return null;
    const run = runRefOf({ ...subject, kind });
    return run && { item: run, name: runText(run) };
  };
}

function runPage(run: RunRef): string {
  return `https://github.com/${run.owner}/${run.repo}/actions/runs/${run.runId}`;
}

function linkRow(run: RunRef): Rows {
  return [{
    type: ComponentType.ActionRow,
    components: [{
      type: ComponentType.Button,
      style: ButtonStyle.Link,
      label: "Open on GitHub",
      url: runPage(run),
    }],
  }];
}

function reviewForm(messageId: string, run: RunRef, approve: boolean, tag: string | undefined) {
  const input: APIModalInteractionResponseCallbackComponent = {
    type: ComponentType.Label,
    label: "Comment (optional)",
    component: {
      type: ComponentType.TextInput,
      custom_id: FORM.comment,
      style: TextInputStyle.Paragraph,
      max_length: MAX_FORM_COMMENT,
      required: false,
    },
  };
  const where = run.environment ? ` to ${run.environment}` : "";
  return modal(
    tagged(`${approve ? FORM.approve : FORM.reject}${messageId}`, tag),
    `${approve ? "Approve" : "Reject"} the deployment${where}`,
    [input],
  );
}

/** Answers a press of a run button (`id`, its tag aside). */
export async function answerRunComponent(
  deps: DiscordDeps,
  interaction: Interaction,
  id: RunActionId,
  tag: string | undefined,
): Promise<InteractionAnswer> {
  const messageId = interaction.message?.id;
  const review = id === RUN_ACTION_IDS.approve || id === RUN_ACTION_IDS.reject;
  const allowed = await gatePress(
    deps,
    interaction,
    messageId,
    tag,
    itemOf(review ? "deployment" : "run"),
  );
  if (!allowed.ok) return allowed.answer;
  if (review) {
    return now(reviewForm(messageId!, allowed.item, id === RUN_ACTION_IDS.approve, tag));
  }
  const action: RunAction = id === RUN_ACTION_IDS.cancel
    ? { kind: "cancel" }
    : { kind: "rerun", failedOnly: id === RUN_ACTION_IDS.rerunFailed };
  const { link, item } = allowed;
  return {
    response: deferEphemeral(),
    later: async () => {
      const reply = await actOnRunAsLinkedUser(deps, link, item, action);
      await editOriginal(deps, interaction.token, reply.text);
    },
  };
}

/** Whether a form's `custom_id` (its tag aside) is the review form. */
export function isReviewForm(id: string): boolean {
  return id.startsWith(FORM.approve) || id.startsWith(FORM.reject);
}

/** Answers the review form: reviews as the presser, then edits the card or shows the refusal. */
export async function answerReviewForm(
  deps: DiscordDeps,
  interaction: Interaction,
  id: string,
  tag: string | undefined,
): Promise<InteractionAnswer> {
  const approve = id.startsWith(FORM.approve);
  const messageId = id.slice(FORM.approve.length);
  const comment = submittedValue(interaction.data?.components, FORM.comment) ?? "";
  if (comment.length > MAX_FORM_COMMENT) {
    return now(ephemeral("The comment is too long."));
  }
  const allowed = await gatePress(deps, interaction, messageId, tag, itemOf("deployment"));
  if (!allowed.ok) return allowed.answer;
  const { link, item, notification } = allowed;
  const action: RunAction = { kind: "review", state: approve ? "approved" : "rejected", comment };
  return {
    response: deferUpdate(),
    later: async () => {
      const reply = await actOnRunAsLinkedUser(deps, link, item, action);
      if (!reply.ok) return await followUp(deps, interaction.token, reply.text);
      const decision = `${approve ? "✅" : "⛔"} ${reply.text}`;
      await editOriginal(deps, interaction.token, decision, linkRow(item));
      await noteReviewDecision(deps.kv, notification, decision);
    },
  };
}
