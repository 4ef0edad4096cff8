import { useEffect, useState } from "preact/hooks";
import type { ReplayGroupChoice } from "../../../lib/admin/replay_choices.ts";
import { adminApi, ApiError } from "../../../components/api/admin_api.ts";
import {
  missedPreset,
  previewQuery,
  previewSentence,
  type ReplayAnswer,
  type ReplayDraft,
  type ReplayPreviewAnswer,
  startBody,
} from "../../../lib/console/replay_form.ts";
import { ReplayFields } from "../../../components/logs/ReplayFields.tsx";
import { ReplayProgress } from "../../../components/logs/ReplayProgress.tsx";
import { MUTED, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../components/logs/ui.ts";

/** How often a running replay's progress is read again. */
const POLL_MS = 1_000;

/** What the panel starts from: the logs page's group, route and event filters. */
export interface ReplayStart {
  groupId?: string;
  routeId?: string;
  event?: string;
}

function firstDraft(groups: readonly ReplayGroupChoice[], start: ReplayStart): ReplayDraft {
  const group = groups.find((choice) => choice.id === start.groupId) ?? groups[0];
  const routeId = group?.routes.some((route) => route.id === start.routeId) ? start.routeId! : "";
  return {
    groupId: group?.id ?? "",
    routeId,
    target: "",
    status: "undelivered",
    event: start.event ?? "",
    from: "",
    to: "",
    mode: "messages",
    includeDelivered: false,
  };
}

function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : "Something went wrong; try again";
}

/**
 * "Replay…" on the logs page: a filter over one group's send logs, the count of what it
 * selects, the mode, Start; then the replay's progress, read again every second while it runs,
 * with Pause, Resume and Cancel. Open at once when the page was asked for it (`?replay=open`,
 * the events page's link). "Missed by this target" fills the filter for what a target
 * missed during an outage (failed and dead messages since a time, the same ones again).
 */
export default function ReplayPanel(
  props: { groups: ReplayGroupChoice[]; start: ReplayStart; open?: boolean },
) {
  const [draft, setDraft] = useState(() => firstDraft(props.groups, props.start));
  const [preview, setPreview] = useState<ReplayPreviewAnswer | null>(null);
  const [replay, setReplay] = useState<ReplayAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const change = (next: ReplayDraft) => {
    setDraft(next);
    setPreview(null);
    setError(null);
  };
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };
  const count = () =>
    run(async () => {
      const { data } = await adminApi("GET /admin/api/groups/{id}/replays/preview", {
        params: { id: draft.groupId },
        query: previewQuery(draft),
      });
      setPreview(data as ReplayPreviewAnswer);
    });
  const start = () =>
    run(async () => {
      const { data } = await adminApi("POST /admin/api/groups/{id}/replays", {
        params: { id: draft.groupId },
        body: startBody(draft) as never,
      });
      setReplay(data as ReplayAnswer);
      setPreview(null);
    });
  const steer = (action: "pause" | "resume" | "cancel") =>
    run(async () => {
      const { data } = await adminApi("POST /admin/api/groups/{id}/replays/{replayId}/state", {
        params: { id: replay!.groupId, replayId: replay!.id },
        body: { action },
      });
      setReplay(data as ReplayAnswer);
    });

  const running = replay?.state === "running";
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(async () => {
      try {
        const { data } = await adminApi("GET /admin/api/groups/{id}/replays/{replayId}", {
          params: { id: replay.groupId, replayId: replay.id },
        });
        setReplay(data as ReplayAnswer);
      } catch (caught) {
        setError(messageOf(caught));
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, replay?.id]);

  if (props.groups.length === 0) return null;
  return (
    <details class="group" data-testid="replay-panel" open={props.open}>
      <summary class="cursor-pointer text-sm font-semibold">Replay…</summary>
      <div class="mt-3 grid gap-4">
        <p class={`max-w-3xl text-sm ${MUTED}`}>
          Send a group's messages again in bulk, through the lanes at the platforms' pace. What was
          delivered is not sent twice unless you include it.
        </p>
        <div class="flex flex-wrap items-center gap-2">
          <button
            type="button"
            class={SECONDARY_BUTTON}
            onClick={() => change(missedPreset(draft, Date.now()))}
          >
            Missed by this target
          </button>
          <span class={`text-xs ${MUTED}`}>
            Failed and dead messages since From (the last day when empty).
          </span>
        </div>
        <ReplayFields draft={draft} groups={props.groups} onChange={change} />
        <div class="flex flex-wrap items-center gap-2">
          <button type="button" class={SECONDARY_BUTTON} disabled={busy} onClick={count}>
            Count
          </button>
          <button
            type="button"
            class={PRIMARY_BUTTON}
            disabled={busy || preview === null || preview.toSend === 0 || running}
            onClick={start}
          >
            Start replay
          </button>
        </div>
        <p class="text-sm" aria-live="polite" data-testid="replay-preview">
          {preview ? previewSentence(preview, draft.mode) : "Count to see what the filter selects."}
        </p>
        {error && (
          <p
            role="alert"
            class="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          >
            {error}
          </p>
        )}
        {replay && <ReplayProgress replay={replay} busy={busy} onAction={steer} />}
      </div>
    </details>
  );
}
