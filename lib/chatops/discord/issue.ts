/**
 * `/gh issue <repo> <title>` on Discord: a form opens with the repository and title filled in
 * and a field for the body; its submission opens the issue as the invoker's linked GitHub
 * account and answers the new issue's address (only the invoker sees it). Both steps pass
 * `chatActionRefusal` for the repository (the roles of the routes posting into the channel,
 * the repository's binding to their groups).
 */
import type { APIModalInteractionResponseCallbackComponent } from "discord-api-types/v10";
import { ComponentType, TextInputStyle } from "../../format/discord_values.ts";
import { MAX_ISSUE_TITLE } from "../../github/actions.ts";
import { getDiscordLink } from "../../store/auth/links.ts";
import { notLinkedText } from "../act.ts";
import { chatActionRefusal } from "../authorize.ts";
import {
  createIssueAsLinkedUser,
  issueInputProblem,
  MAX_REPOSITORY_TEXT,
  parseRepository,
  type RepositoryRef,
} from "../create_issue.ts";
import { type DiscordDeps, type InteractionAnswer, now } from "./answer.ts";
import {
  type CommandOption,
  discordPlace,
  type Interaction,
  invokerOf,
  stringOption,
  submittedValue,
} from "./interaction.ts";
import { deferEphemeral, editOriginal, ephemeral, modal } from "./reply.ts";

/** The form's `custom_id`. */
export const ISSUE_FORM = "gh:issue";

/** The form's inputs. */
const INPUTS = { repository: "repo", title: "title", body: "body" } as const;

/** Longest body the form takes (Discord's limit on a text input). */
const MAX_FORM_BODY = 4000;

function textInput(
  label: string,
  customId: string,
  options: { value?: string; max: number; paragraph?: boolean; required: boolean },
): APIModalInteractionResponseCallbackComponent {
  return {
    type: ComponentType.Label,
    label,
    component: {
      type: ComponentType.TextInput,
      custom_id: customId,
      style: options.paragraph ? TextInputStyle.Paragraph : TextInputStyle.Short,
      max_length: options.max,
      required: options.required,
      ...(options.value ? { value: options.value.slice(0, options.max) } : {}),
    },
  };
}

/** Why the invoker may not open an issue in `repository` from here, or null. */
async function refusalFor(
  deps: DiscordDeps,
  interaction: Interaction,
  repository: RepositoryRef,
): Promise<string | null> {
  return await chatActionRefusal(
    deps.kv,
    discordPlace(interaction),
    { kind: "repository", ...repository },
    new Set(interaction.member?.roles ?? []),
  );
}

/** Answers `/gh issue`: the form, or why not. */
export async function answerIssueCommand(
  deps: DiscordDeps,
  interaction: Interaction,
  options: Map<string, CommandOption>,
): Promise<InteractionAnswer> {
  const invoker = invokerOf(interaction)!;
  const parsed = parseRepository(stringOption(options, INPUTS.repository));
  if (!parsed.ok) return now(ephemeral(parsed.error));
  const title = stringOption(options, INPUTS.title) ?? "";
  const refusal = await refusalFor(deps, interaction, parsed.repository);
  if (refusal !== null) return now(ephemeral(refusal));
  if (!(await getDiscordLink(deps.kv, invoker.id))) return now(ephemeral(notLinkedText()));
  const name = `${parsed.repository.owner}/${parsed.repository.repo}`;
  return now(modal(ISSUE_FORM, `Open an issue in ${name}`, [
    textInput("Repository (owner/repo)", INPUTS.repository, {
      value: name,
      max: MAX_REPOSITORY_TEXT,
      required: true,
    }),
    textInput("Title", INPUTS.title, { value: title, max: MAX_ISSUE_TITLE, required: true }),
    textInput("Body (Markdown)", INPUTS.body, {
      max: MAX_FORM_BODY,
      paragraph: true,
      required: false,
    }),
  ]));
}

/** Answers the form: opens the issue as the invoker, deferred, when allowed. */
export async function answerIssueForm(
  deps: DiscordDeps,
  interaction: Interaction,
): Promise<InteractionAnswer> {
  const components = interaction.data?.components;
  const parsed = parseRepository(submittedValue(components, INPUTS.repository));
  if (!parsed.ok) return now(ephemeral(parsed.error));
  const title = submittedValue(components, INPUTS.title) ?? "";
  const body = submittedValue(components, INPUTS.body) ?? "";
  const problem = issueInputProblem(title, body);
  if (problem !== null) return now(ephemeral(problem));
  const refusal = await refusalFor(deps, interaction, parsed.repository);
  if (refusal !== null) return now(ephemeral(refusal));
  const invoker = invokerOf(interaction);
  const link = invoker && await getDiscordLink(deps.kv, invoker.id);
  if (!link) return now(ephemeral(notLinkedText()));
  return {
    response: deferEphemeral(),
    later: async () => {
      const reply = await createIssueAsLinkedUser(deps, link.userId, parsed.repository, {
        title,
        body,
      });
      await editOriginal(deps, interaction.token, reply.text);
    },
  };
}
