import { progressSentence, type ReplayAnswer } from "../../lib/console/replay_form.ts";
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
              <button
                type="button"
                class={SECONDARY_BUTTON}
                disabled={busy}
                onClick={() => onAction("pause")}
              >
                Pause
              </button>
            )
            : (
              <button
                type="button"
                class={PRIMARY_BUTTON}
                disabled={busy}
                onClick={() => onAction("resume")}
              >
                Resume
              </button>
            )}
          <button
            type="button"
            class={SECONDARY_BUTTON}
            disabled={busy}
            onClick={() => onAction("cancel")}
          >
            Cancel replay
          </button>
        </div>
      )}
    </div>
  );
}
