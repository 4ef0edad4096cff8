/**
 * Answers to Discord interactions: the immediate response bodies (messages, deferrals, modals,
 * autocomplete choices) and the follow-up edit that completes a deferred answer through the
 * interaction's webhook (`PATCH /webhooks/{application}/{token}/messages/@original`). Chat text
 * never pings anyone.
 */
import type {
  APIActionRowComponent,
  APIComponentInMessageActionRow,
  APIInteractionResponse,
  APIModalInteractionResponseCallbackComponent,
} from "discord-api-types/v10";
import { InteractionResponseType, MessageFlags } from "../../format/discord_values.ts";
import type { Config } from "../../config.ts";
import { callJson } from "../../http_client.ts";
import type { Logger } from "../../log.ts";

/** Discord's limit on a message's content. */
const MAX_CONTENT = 2000;

/** Message rows. */
export type Rows = APIActionRowComponent<APIComponentInMessageActionRow>[];

/** The content, cut to Discord's limit. */
function bounded(content: string): string {
  return content.length > MAX_CONTENT ? `${content.slice(0, MAX_CONTENT - 1)}…` : content;
}

/** A message only the invoker sees (ephemeral), with optional rows. */
export function ephemeral(content: string, components?: Rows): APIInteractionResponse {
  return {
    type: InteractionResponseType.ChannelMessageWithSource,
    data: {
      content: bounded(content),
      flags: MessageFlags.Ephemeral,
      allowed_mentions: { parse: [] },
      ...(components ? { components } : {}),
    },
  };
}

/** Replaces the message a component is on (an ephemeral confirmation). */
export function updateMessage(content: string, components: Rows = []): APIInteractionResponse {
  return {
    type: InteractionResponseType.UpdateMessage,
    data: { content: bounded(content), components, allowed_mentions: { parse: [] } },
  };
}

/** "Thinking…", visible only to the invoker; the follow-up edit replaces it. */
export function deferEphemeral(): APIInteractionResponse {
  return {
    type: InteractionResponseType.DeferredChannelMessageWithSource,
    data: { flags: MessageFlags.Ephemeral },
  };
}

/** Acknowledges a component without a new message; the follow-up edits the component's message. */
export function deferUpdate(): APIInteractionResponse {
  return { type: InteractionResponseType.DeferredMessageUpdate };
}

/** A pop-up form. */
export function modal(
  customId: string,
  title: string,
  components: APIModalInteractionResponseCallbackComponent[],
): APIInteractionResponse {
  return {
    type: InteractionResponseType.Modal,
    data: { custom_id: customId, title: title.slice(0, 45), components },
  };
}

/** Autocomplete choices (at most 25). */
export function choices(items: { name: string; value: string }[]): APIInteractionResponse {
  return {
    type: InteractionResponseType.ApplicationCommandAutocompleteResult,
    data: { choices: items.slice(0, 25) },
  };
}

/**
 * Replaces the deferred answer of the interaction `token` with `content` and `components`
 * (none by default, which removes any rows). After a deferred update of a component's message
 * this edits that message. Failures are logged: the interaction then shows Discord's own
 * failure notice.
 */
export async function editOriginal(
  deps: { config: Config; log: Logger },
  token: string,
  content: string,
  components: Rows = [],
): Promise<void> {
  const { apiUrl, applicationId } = deps.config.discord;
  const outcome = await callJson(
    `${apiUrl}/webhooks/${applicationId}/${token}/messages/@original`,
    {
      method: "PATCH",
      headers: { "user-agent": "DiscordBot (switchyard, 1.0)" },
      body: { content: bounded(content), components, allowed_mentions: { parse: [] } },
    },
  );
  if (outcome.kind !== "ok") {
    deps.log.warn("discord follow-up not delivered", {
      outcome: outcome.kind,
      ...(outcome.kind === "refused" ? { status: outcome.status } : {}),
    });
  }
}

/** Sends an extra ephemeral message in the interaction `token` (e.g. a link confirmation). */
export async function followUp(
  deps: { config: Config; log: Logger },
  token: string,
  content: string,
): Promise<void> {
  const { apiUrl, applicationId } = deps.config.discord;
  const outcome = await callJson(`${apiUrl}/webhooks/${applicationId}/${token}`, {
    method: "POST",
    headers: { "user-agent": "DiscordBot (switchyard, 1.0)" },
    body: {
      content: bounded(content),
      flags: MessageFlags.Ephemeral,
      allowed_mentions: { parse: [] },
    },
  });
  if (outcome.kind !== "ok") deps.log.warn("discord follow-up not sent", { outcome: outcome.kind });
}
