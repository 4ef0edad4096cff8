/** The body a unit sends: the event's message rendered for the target's platform. */
import type { Message } from "../format/message.ts";
import { renderTemplateMessage, TemplateRenderError } from "../template/mod.ts";
import { actionsOfEvent } from "../format/subject.ts";
import { runActionsOfEvent } from "./run_subject.ts";
import { type MentionedUsers, NO_MENTIONS } from "../format/mentions.ts";
import type { Config } from "../config.ts";
import type { ForgeEvent, Platform, Route, RouteTemplate, Target } from "../types.ts";
import { perPlatform, PLATFORMS } from "./adapters.ts";

/** Which platforms' notifications carry chat-ops buttons. */
export type ChatButtons = Readonly<Record<Platform, boolean>>;

/** Buttons on both platforms: the default where nothing says otherwise. */
export const ALL_BUTTONS: ChatButtons = perPlatform(() => true);

/**
 * Buttons only where pressing them reaches the app: Discord's with interactions configured
 * (application id and public key), Telegram's with the bot's webhook secret.
 */
export function chatButtonsOf(config: Config): ChatButtons {
  return perPlatform((platform) => platform.buttonsWork(config));
}

/** The message a route sends for an event, and why its template failed when it did. */
interface RouteMessage {
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
 * is about a pull request, an issue, a workflow run or a deployment waiting for review) or
 * Telegram's HTML text (with the same buttons and the mentioned users linked). Buttons only on
 * the platforms `buttons` allows. Null for an unknown platform.
 */
export function renderFor(
  message: Message,
  route: Route,
  target: Target,
  event?: ForgeEvent,
  mentioned: MentionedUsers = NO_MENTIONS,
  buttons: ChatButtons = ALL_BUTTONS,
): unknown {
  const actions = (event && (actionsOfEvent(event) ?? runActionsOfEvent(event))) ?? undefined;
  const platform = PLATFORMS.get(target.platform);
  if (!platform) return null;
  return platform.render(message, {
    roleIds: route.discordRoleIds,
    mentioned,
    actions: buttons[target.platform] ? actions : undefined,
  });
}
