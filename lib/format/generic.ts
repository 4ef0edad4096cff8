/** The formatter for forge events without a dedicated one. */

import { compose, type EventContext } from "./context.ts";
import { COLORS } from "./colors.ts";
import { code, field, type Message } from "./message.ts";
import { at, record } from "./read.ts";
import { capitalize, humanize, safeUrl } from "./text.ts";

const CONTEXT_KEYS = new Set([
  "sender",
  "repository",
  "organization",
  "installation",
  "enterprise",
]);

/** The web page of the event's main object: the one named like the event, else any with `html_url`. */
function subjectUrl(context: EventContext): string | undefined {
  const named = safeUrl(at(context.payload, context.event.kind, "html_url"));
  if (named) return named;
  for (const [key, value] of Object.entries(context.payload)) {
    const url = !CONTEXT_KEYS.has(key) && record(value)
      ? safeUrl(at(value, "html_url"))
      : undefined;
    if (url) return url;
  }
  return context.repository?.url;
}

/**
 * Any other event: its kind and action in words (`Branch protection rule
 * created`), linked to its main object, with the exact event name for routing.
 */
export function formatGeneric(context: EventContext): Message {
  const { kind } = context.event;
  const action = context.action;
  return compose(context, {
    subject: capitalize(humanize(kind) || "event") + (action ? ` ${humanize(action)}` : ""),
    url: subjectUrl(context),
    color: COLORS.grey,
    fields: [field("Event", code(action ? `${kind}.${action}` : kind))],
  });
}
