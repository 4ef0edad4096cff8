/**
 * The one place an event gets its kind and action: from the sender's event name (the value of
 * `X-GitHub-Event` or `X-Gitea-Event`) and the payload's `action`, in GitHub's names. The
 * ingress and the admin API's test-match both call it, so a trial names an event exactly as
 * live routing does.
 */
import type { Provider } from "../types.ts";
import { type EventName, payloadAction } from "./adapter.ts";
import { normalizeGiteaName } from "./gitea_names.ts";

/**
 * An event's kind and action. Custom events are always kind `custom`; GitHub's names are
 * taken as they are; Gitea's are mapped to GitHub's. `event` must be a well-formed event
 * name (see `isEventName`); custom senders have none.
 */
export function eventNameOf(
  provider: Provider,
  event: string,
  payload: Record<string, unknown>,
): EventName {
  const action = payloadAction(payload);
  if (provider === "custom") return { kind: "custom", action };
  if (provider === "gitea") return normalizeGiteaName(event, action);
  return { kind: event, action };
}
