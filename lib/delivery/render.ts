/** The body a unit sends: the event's message rendered for the target's platform. */
import { type Message, renderDiscord, renderTelegram } from "../format/mod.ts";
import type { Route, Target } from "../types.ts";

/**
 * Renders `message` for `target`: Discord's create-message body (with the
 * route's role pings) or Telegram's HTML text. Null for an unknown platform.
 */
export function renderFor(message: Message, route: Route, target: Target): unknown {
  switch (target.platform) {
    case "discord":
      return renderDiscord(message, { roleIds: route.discordRoleIds });
    case "telegram":
      return renderTelegram(message);
    default:
      return null;
  }
}
