import { progressSentence, type ReplayAnswer } from "../../lib/console/replay_form.ts";
import { ActionButton } from "../forms/ActionButton.tsx";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "./ui.ts";

/** Where a replay stands, with a progress bar and the actions its state allows. */
export function ReplayProgress(props: {
  replay: ReplayAnswer;
  busy: boolean;
  onAction: (action: "pause" | "resume" | "cancel") => void;
}) {
  const { replay, busy, onAction } = props;
  const open = replay.state === "running" || replay.state === "paused";
  return (
    <div class="grid gap-2" data-testid="replay-progress">
      <progress
        class="h-2 w-full accent-indigo-600"
        max={Math.max(replay.total, 1)}
        value={replay.state === "done" ? Math.max(replay.total, 1) : replay.walked}
        aria-label="Replay progress"
      />
      <p class="text-sm" role="status" data-testid="replay-status">{progressSentence(replay)}</p>
      {open && (
        <div class="flex flex-wrap gap-2">
          {replay.state === "running"
            ? (
              <ActionButton class={SECONDARY_BUTTON} busy={busy} onClick={() => onAction("pause")}>
                Pause
              </ActionButton>
            )
            : (
              <ActionButton class={PRIMARY_BUTTON} busy={busy} onClick={() => onAction("resume")}>
                Resume
              </ActionButton>
            )}
          <ActionButton class={SECONDARY_BUTTON} busy={busy} onClick={() => onAction("cancel")}>
            Cancel replay
          </ActionButton>
        </div>
      )}
    </div>
  );
}
