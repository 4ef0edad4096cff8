/** The body a unit sends: the event's message rendered for the target's platform. */
import { type Message, renderDiscord, renderTelegram } from "../format/mod.ts";
import { renderTemplateMessage, TemplateRenderError } from "../template/mod.ts";
import { actionsOfEvent } from "../chatops/subject.ts";
import { type MentionedUsers, NO_MENTIONS } from "../format/mentions.ts";
import type { ForgeEvent, Route, RouteTemplate, Target } from "../types.ts";

/** The message a route sends for an event, and why its template failed when it did. */
export interface RouteMessage {
  message: Message;
  templateError?: string;
}

/**
 * A route's message for `event`: its template rendered, when it has one, else the built-in
 * message. A template that fails falls back to the built-in message, saying why.
 */
export function messageForRoute(
  event: ForgeEvent,
  builtIn: Message,
  template: RouteTemplate | undefined,
): RouteMessage {
  if (!template) return { message: builtIn };
  try {
    return { message: renderTemplateMessage(template, event, builtIn) };
  } catch (error) {
    const reason = error instanceof TemplateRenderError ? error.message : "could not be rendered";
    return { message: builtIn, templateError: `template ${reason}` };
  }
}

/**
 * Renders `message` for `target`: Discord's create-message body (with the
 * route's role pings and the linked users `mentioned`, and the chat-ops buttons when `event`
 * is about a pull request or issue) or Telegram's HTML text (with the same buttons and the
 * mentioned users linked). Null for an unknown platform.
 */
export function renderFor(
  message: Message,
  route: Route,
  target: Target,
  event?: ForgeEvent,
  mentioned: MentionedUsers = NO_MENTIONS,
): unknown {
  switch (target.platform) {
    case "discord":
      return renderDiscord(message, {
        roleIds: route.discordRoleIds,
        userIds: mentioned.discordUserIds,
        actions: (event && actionsOfEvent(event)) ?? undefined,
      });
    case "telegram":
      return renderTelegram(
        message,
        (event && actionsOfEvent(event)) ?? undefined,
        mentioned.telegramUsers,
      );
    default:
      return null;
  }
}
