import { useState } from "preact/hooks";
import { eventHref } from "../../../components/events/EventTable.tsx";
import { SECONDARY_BUTTON } from "../../../components/logs/ui.ts";
import { adminApi, tryAdminApi } from "../../../components/api/admin_api.ts";

/** How long the button waits for the new event's routes to be judged before linking to it. */
const WAIT_MS = 15_000;
const POLL_MS = 500;

async function resend(groupId: string, eventId: string): Promise<string> {
  const { data } = await adminApi("POST /admin/api/groups/{id}/events/{eventId}/resend", {
    params: { id: groupId, eventId },
  });
  return String(data.eventId);
}

/**
 * Waits until the group's newest events include the new one (its routes judged); false on time
 * out. The list always answers, so the wait logs no failed request.
 */
async function judged(groupId: string, eventId: string): Promise<boolean> {
  const until = Date.now() + WAIT_MS;
  while (Date.now() < until) {
    const answer = await tryAdminApi("GET /admin/api/groups/{id}/events", {
      params: { id: groupId },
      query: { limit: 10 },
    });
    const items: { id: string }[] = answer.ok ? answer.data.items : [];
    if (items.some((item) => item.id === eventId)) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}

/**
 * "Send again through the current routes": accepts the stored event again as a new event of
 * the group, then opens the new event's page once its routes are judged (or links to it).
 */
export default function ResendButton(props: { groupId: string; eventId: string }) {
  const [state, setState] = useState<
    { step: "idle" | "sending" } | { step: "sent"; eventId: string } | {
      step: "failed";
      error: string;
    }
  >({ step: "idle" });
  const send = async () => {
    setState({ step: "sending" });
    try {
      const eventId = await resend(props.groupId, props.eventId);
      if (await judged(props.groupId, eventId)) {
        globalThis.location.assign(eventHref(props.groupId, eventId));
        return;
      }
      setState({ step: "sent", eventId });
    } catch (error) {
      setState({ step: "failed", error: (error as Error).message });
    }
  };
  return (
    <div class="flex flex-wrap items-center gap-x-3 gap-y-2">
      <button
        type="button"
        class={SECONDARY_BUTTON}
        disabled={state.step === "sending"}
        onClick={send}
        data-testid="resend"
      >
        {state.step === "sending" ? "Sending…" : "Send again through the current routes"}
      </button>
      <p role="status" class="text-sm">
        {state.step === "sent" && (
          <>
            Sent as a new event; its routes are still being judged.{" "}
            <a class="underline" href={eventHref(props.groupId, state.eventId)}>Open it</a>
          </>
        )}
        {state.step === "failed" && (
          <span class="text-red-800 dark:text-red-200">{state.error}</span>
        )}
      </p>
    </div>
  );
}
