/** The body a unit sends: the event's message rendered for the target's platform. */
import { type Message, renderDiscord, renderTelegram } from "../format/mod.ts";
import { actionsOfEvent } from "../chatops/subject.ts";
import type { ForgeEvent, Route, Target } from "../types.ts";

/**
 * Renders `message` for `target`: Discord's create-message body (with the
 * route's role pings, and the chat-ops buttons when `event` is about a pull request or issue)
 * or Telegram's HTML text (with the same buttons). Null for an unknown platform.
 */
export function renderFor(
  message: Message,
  route: Route,
  target: Target,
  event?: ForgeEvent,
): unknown {
  switch (target.platform) {
    case "discord":
      return renderDiscord(message, {
        roleIds: route.discordRoleIds,
        actions: (event && actionsOfEvent(event)) ?? undefined,
      });
    case "telegram":
      return renderTelegram(message, (event && actionsOfEvent(event)) ?? undefined);
    default:
      return null;
  }
}
