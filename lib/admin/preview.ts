/**
 * `POST /admin/api/preview`: the chat messages an event would become, rendered by the real
 * formatter for Discord (the Create Message body, one embed) and Telegram (the `sendMessage`
 * text in HTML). The event is named as test-match names it (`trialEventName`), so the preview
 * shows exactly what delivery would send. With a route's message template the messages are
 * the template's, or the built-in ones with the template's error, as delivery does it. Stores
 * nothing and sends nothing.
 */
import { formatEvent, renderDiscord, renderTelegram } from "../format/mod.ts";
import type { DiscordMessageBody } from "../format/discord.ts";
import type { TelegramMessageBody } from "../format/telegram.ts";
import { messageForRoute } from "../delivery/render.ts";
import type { ForgeEvent, Provider, RouteTemplate } from "../types.ts";
import { trialEventName } from "./test_match.ts";

/** A validated preview request. */
interface PreviewInput {
  event?: string;
  provider?: Provider;
  payload: Record<string, unknown>;
  discordRoleIds?: string[];
  template?: RouteTemplate;
}

/** The event's name and its messages; null messages when the kind is never sent (`ping`). */
interface PreviewAnswer {
  kind: string;
  action?: string;
  discord: DiscordMessageBody | null;
  telegram: TelegramMessageBody | null;
  templateError?: string;
}

/** The messages `input`'s event would be sent as. */
export function previewMessage(input: PreviewInput): PreviewAnswer {
  const name = trialEventName(input);
  const header = (input.event ?? "custom").split(".")[0];
  const provider = input.provider ?? (header === "custom" ? "custom" : "github");
  const event: ForgeEvent = {
    id: "preview",
    provider,
    kind: name.kind,
    action: name.action,
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    payload: input.payload,
  };
  const builtIn = formatEvent(event);
  const answer = { kind: name.kind, ...(name.action === undefined ? {} : { action: name.action }) };
  if (!builtIn) return { ...answer, discord: null, telegram: null };
  const { message, templateError } = messageForRoute(event, builtIn, input.template);
  return {
    ...answer,
    discord: renderDiscord(message, { roleIds: input.discordRoleIds }),
    telegram: renderTelegram(message),
    ...(templateError === undefined ? {} : { templateError }),
  };
}
