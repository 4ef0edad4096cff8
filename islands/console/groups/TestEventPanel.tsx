import { type AnswerOf, tryAdminApi } from "../../../components/api/admin_api.ts";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { UntilHydrated } from "../../../components/groups/UntilHydrated.tsx";
import { BADGE, CARD, CARD_TITLE, INPUT, MUTED, PRIMARY } from "../../../components/groups/ui.ts";
import type { GroupEvent } from "../../../lib/admin/events.ts";
import type { TestEventAnswer } from "../../../lib/admin/test_event.ts";
import { describeTargetRef, targetRefOf } from "../../../lib/target_ref.ts";

/** A bundled sample as the menu offers it. */
export interface SampleChoice {
  id: string;
  label: string;
}

const POLL_MS = 1_000;
const WATCH_MS = 60_000;
const FINAL = new Set(["ok", "failed", "dead"]);

const STATUS_TONES: Record<string, string> = {
  ok: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100",
  retrying: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  failed: "bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-100",
  dead: "bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-100",
};

/** An event with its routes' verdicts and its send logs, as the admin API answers it. */
type GroupEventDetail = AnswerOf<"GET /admin/api/groups/{id}/events/{eventId}">;

/** What the panel shows of one test event as it travels. */
interface Watch {
  answer: TestEventAnswer;
  event: GroupEvent | null;
  detail: GroupEventDetail | null;
  /** Polling stopped: everything is final, or the watch timed out. */
  done: boolean;
}

const LABEL_CHARS = 80;

/** An event in a few words: its title (or kind and repository), cut at a word. */
function recentLabel(event: GroupEvent): string {
  const name = event.action ? `${event.kind}.${event.action}` : event.kind;
  const label = event.title ?? `${name} ${event.repository ?? event.id}`;
  if (label.length <= LABEL_CHARS) return label;
  const cut = label.slice(0, LABEL_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), LABEL_CHARS / 2))}…`;
}

/** Whether the watch can stop: the event arrived and every send is final. */
function settled(detail: GroupEventDetail | null, event: GroupEvent | null): boolean {
  if (!event || !detail) return false;
  return detail.logs.length >= event.routeIds.length &&
    detail.logs.every((log) => FINAL.has(log.status));
}

function Step(props: { done: boolean; children: preact.ComponentChildren }) {
  return (
    <li class="flex gap-2">
      <span aria-hidden="true" class={props.done ? "text-emerald-600" : "text-slate-400"}>
        {props.done ? "✓" : "…"}
      </span>
      <div class="min-w-0 flex-1">{props.children}</div>
    </li>
  );
}

/**
 * Sends a test event through the group's real ingress (the server signs it with the group's
 * secret) and follows it: the ingress's answer, the event in Events, each route's verdict and
 * each send's status, polled from the admin API until every send is final.
 */
export default function TestEventPanel(props: {
  groupId: string;
  samples: SampleChoice[];
  initialSample?: string;
  /** The heading's id (the section is labelled by it). */
  headingId: string;
  /** A line under the introduction (the route editor says the saved routes are used). */
  note?: string;
}) {
  const selectId = useId();
  const [choice, setChoice] = useState(props.initialSample ?? props.samples[0]?.id ?? "");
  const [recent, setRecent] = useState<GroupEvent[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [watch, setWatch] = useState<Watch | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    tryAdminApi("GET /admin/api/groups/{id}/events", {
      params: { id: props.groupId },
      query: { limit: 10 },
    }).then((answer) => answer.ok && setRecent(answer.data.items));
    return () => clearTimeout(timer.current);
  }, []);

  const follow = async (answer: TestEventAnswer, startedAt: number) => {
    const list = await tryAdminApi("GET /admin/api/groups/{id}/events", {
      params: { id: props.groupId },
      query: { limit: 20 },
    });
    const event =
      (list.ok ? list.data.items : []).find((item) =>
        item.deliveryId === answer.deliveryId ||
        (answer.provider === "custom" && item.receivedAt >= answer.sentAt)
      ) ?? null;
    const found = event
      ? await tryAdminApi("GET /admin/api/groups/{id}/events/{eventId}", {
        params: { id: props.groupId, eventId: event.id },
      })
      : null;
    const detail = found?.ok ? found.data : null;
    const done = settled(detail, event) || Date.now() - startedAt > WATCH_MS;
    setWatch({ answer, event, detail, done });
    if (!done) timer.current = setTimeout(() => follow(answer, startedAt), POLL_MS);
  };

  const send = async (submit: Event) => {
    submit.preventDefault();
    clearTimeout(timer.current);
    setBusy(true);
    setError("");
    setWatch(null);
    const body = choice.startsWith("event:") ? { eventId: choice.slice(6) } : { sample: choice };
    const answer = await tryAdminApi("POST /admin/api/groups/{id}/test-event", {
      params: { id: props.groupId },
      body,
    });
    setBusy(false);
    if (!answer.ok) return setError(`Not sent: ${answer.error.message}`);
    const sent = answer.data;
    setWatch({ answer: sent, event: null, detail: null, done: !sent.accepted });
    if (sent.accepted) follow(sent, Date.now());
  };

  const answer = watch?.answer;
  const eventHref = watch?.event
    ? `/admin/events/${encodeURIComponent(props.groupId)}/${encodeURIComponent(watch.event.id)}`
    : null;
  return (
    <section class={CARD} aria-labelledby={props.headingId} data-testid="test-event">
      <h2 id={props.headingId} class={CARD_TITLE}>Send a test event</h2>
      <p class={`mt-1 ${MUTED}`}>
        Sends a sample through this group's webhook address, signed by the server with the group's
        secret, exactly as GitHub would; then follows it to Events and the logs.
      </p>
      {props.note && <p class={`mt-1 ${MUTED}`}>{props.note}</p>}
      <UntilHydrated>
        <form class="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={send}>
          <div class="min-w-0 flex-1">
            <label for={selectId} class="mb-1 block text-sm font-medium">Sample</label>
            <select
              id={selectId}
              class={INPUT}
              value={choice}
              onChange={(event) => setChoice(event.currentTarget.value)}
            >
              <optgroup label="Bundled samples (GitHub)">
                {props.samples.map((sample) => (
                  <option key={sample.id} value={sample.id}>{sample.label}</option>
                ))}
              </optgroup>
              {recent.length > 0 && (
                <optgroup label="Recent events of this group">
                  {recent.map((event) => (
                    <option key={event.id} value={`event:${event.id}`}>{recentLabel(event)}</option>
                  ))}
                </optgroup>
              )}
            </select>
          </div>
          <button type="submit" class={PRIMARY} disabled={busy || choice === ""}>
            {busy ? "Sending…" : "Send test event"}
          </button>
        </form>
      </UntilHydrated>
      <p
        role="alert"
        class={error
          ? "mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
          : "sr-only"}
      >
        {error}
      </p>
      <div role="status" aria-live="polite" data-testid="test-event-progress">
        {answer && (
          <ol class="mt-4 flex flex-col gap-3 text-sm">
            <Step done={answer.accepted}>
              {answer.accepted
                ? (
                  <span data-testid="test-event-accepted">
                    The ingress accepted it ({answer.status}
                    {answer.duplicate ? ", a duplicate" : ""}).
                  </span>
                )
                : (
                  <span class="text-red-800 dark:text-red-200" data-testid="test-event-refused">
                    The ingress refused it ({answer.status} {answer.error}). {answer.hint ?? ""}
                  </span>
                )}
            </Step>
            {answer.accepted && (
              <Step done={watch?.event !== null}>
                {watch?.event && eventHref
                  ? (
                    <span>
                      Arrived in Events:{" "}
                      <a
                        href={eventHref}
                        class="text-indigo-700 underline dark:text-indigo-300"
                        data-testid="test-event-link"
                      >
                        {recentLabel(watch.event)}
                      </a>
                    </span>
                  )
                  : watch?.done
                  ? "Not in Events after a minute: is the delivery worker running?"
                  : "Waiting for the event to be routed…"}
              </Step>
            )}
            {watch?.detail && (
              <Step done={watch.done}>
                <p class="font-medium">Routes</p>
                {watch.detail.routes.length === 0
                  ? <p class={MUTED}>The group has no routes yet: add one to send anything.</p>
                  : (
                    <ul class="mt-1 flex flex-col gap-1" data-testid="test-event-routes">
                      {watch.detail.routes.map((route) => (
                        <li key={route.id} data-fired={String(route.fired)}>
                          <span class="font-medium">{route.name}</span>: {route.verdict}
                        </li>
                      ))}
                    </ul>
                  )}
                {watch.detail.logs.length > 0 && (
                  <>
                    <p class="mt-2 font-medium">Sends</p>
                    <ul class="mt-1 flex flex-col gap-1" data-testid="test-event-sends">
                      {watch.detail.logs.map((log) => (
                        <li key={log.id} class="flex items-start gap-2">
                          <span
                            class={`${BADGE} ${STATUS_TONES[log.status] ?? ""}`}
                            data-status={log.status}
                          >
                            {log.status}
                          </span>
                          <span class="min-w-0 flex-1 break-words">
                            {watch.detail!.routes.find((route) =>
                              route.id === log.routeId
                            )?.name ??
                              log.routeId} → {describeTargetRef(targetRefOf(log.target))}
                            {log.error ? `: ${log.error}` : ""}{" "}
                            <a
                              href={`/admin/logs/${encodeURIComponent(log.id)}`}
                              class="text-indigo-700 underline dark:text-indigo-300"
                            >
                              Log
                            </a>
                          </span>
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </Step>
            )}
          </ol>
        )}
      </div>
    </section>
  );
}
