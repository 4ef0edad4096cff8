import { useState } from "preact/hooks";
import { ActionButton } from "../../components/forms/ActionButton.tsx";
import { showToast } from "../../components/layout/toast.ts";
import { tryAdminApi } from "../../components/api/admin_api.ts";

type Action = "resume" | "discard";

const DONE: Record<Action, (count: number) => string> = {
  resume: (count) =>
    `Resumed: ${count} held message${count === 1 ? "" : "s"} on the way, in order.`,
  discard: (count) => `Discarded ${count} held message${count === 1 ? "" : "s"}; the logs say so.`,
};

/**
 * Resume and Discard for a paused target (`POST /admin/api/groups/:id/target-health/…`):
 * Discard asks first; the answer shows in the console's status region, and the page reloads.
 */
export default function HeldTargetActions(props: { groupId: string; targetKey: string }) {
  const [busy, setBusy] = useState(false);
  const act = async (action: Action) => {
    if (action === "discard" && !confirm("Discard every message this target holds?")) return;
    setBusy(true);
    try {
      const answer = await tryAdminApi(`POST /admin/api/groups/{id}/target-health/${action}`, {
        params: { id: props.groupId },
        body: { target: props.targetKey },
      });
      if (!answer.ok) {
        showToast(answer.error.message, "error");
        return;
      }
      const data = answer.data as { resumed?: number; discarded?: number };
      const count = Number(data.resumed ?? data.discarded ?? 0);
      showToast(DONE[action](count));
      location.reload();
    } finally {
      setBusy(false);
    }
  };
  return (
    <p class="mt-1 flex gap-2">
      <ActionButton
        class="rounded bg-amber-700 px-2 py-1 text-sm font-medium text-white disabled:opacity-50"
        busy={busy}
        onClick={() => act("resume")}
      >
        Resume
      </ActionButton>
      <ActionButton
        class="rounded border border-amber-700 px-2 py-1 text-sm font-medium disabled:opacity-50"
        busy={busy}
        onClick={() => act("discard")}
      >
        Discard
      </ActionButton>
    </p>
  );
}
