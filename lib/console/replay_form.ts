/**
 * The logs page's "Replay…" panel without the DOM: the form's draft, the preview query and the
 * start body it makes (`lib/admin/replay_schemas.ts`), the one-click "missed by this target"
 * preset and the sentences that report a preview and a replay's progress. Times in the form
 * are UTC (`datetime-local` fields read as UTC). Browser-safe.
 */

/** The panel's form, as typed. */
export interface ReplayDraft {
  groupId: string;
  routeId: string;
  target: string;
  status: string;
  event: string;
  from: string;
  to: string;
  mode: "messages" | "routes";
  includeDelivered: boolean;
}

/** A preview as the API answers it. */
export interface ReplayPreviewAnswer {
  selected: number;
  events: number;
  toSend: number;
  delivered: number;
  sending: number;
  limit: number;
}

/** A replay as the API answers it (the fields the panel shows). */
export interface ReplayAnswer {
  id: string;
  groupId: string;
  mode: "messages" | "routes";
  state: "running" | "paused" | "cancelled" | "done";
  total: number;
  walked: number;
  sent: number;
  skipped: number;
  expired: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A `datetime-local` value (UTC) as ISO-8601, or undefined when empty. */
function utcInstant(value: string): string | undefined {
  if (value === "") return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : value;
}

/** A time as a `datetime-local` value in UTC. */
function localValue(time: number): string {
  return new Date(time).toISOString().slice(0, 16);
}

/** The filter fields of the draft that are set, in the API's names. */
function filterOf(draft: ReplayDraft): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    routeId: draft.routeId || undefined,
    target: draft.target || undefined,
    status: draft.status || undefined,
    event: draft.event.trim() || undefined,
    from: utcInstant(draft.from),
    to: utcInstant(draft.to),
    mode: draft.mode,
  };
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** The preview address of the draft. */
export function previewQuery(draft: ReplayDraft): Record<string, string> {
  const query: Record<string, string> = { ...filterOf(draft) };
  if (draft.includeDelivered && draft.mode === "routes") query.includeDelivered = "true";
  return query;
}

/** The body that starts a replay of the draft. */
export function startBody(draft: ReplayDraft): Record<string, unknown> {
  return {
    ...filterOf(draft),
    ...(draft.includeDelivered && draft.mode === "routes" ? { includeDelivered: true } : {}),
  };
}

/** "Everything this target missed since …": failed and dead messages, the same ones again. */
export function missedPreset(draft: ReplayDraft, now: number): ReplayDraft {
  return {
    ...draft,
    status: "undelivered",
    mode: "messages",
    includeDelivered: false,
    routeId: "",
    event: "",
    to: "",
    from: draft.from || localValue(now - DAY_MS),
  };
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en")} ${count === 1 ? one : many}`;
}

/** What a preview found and what the replay would send, in words. */
export function previewSentence(preview: ReplayPreviewAnswer, mode: ReplayDraft["mode"]): string {
  const selected = `${plural(preview.selected, "message")} of ${plural(preview.events, "event")}`;
  const sends = mode === "routes"
    ? `${plural(preview.toSend, "event")} would go through the current routes again`
    : `${plural(preview.toSend, "message")} would be sent again`;
  const left = [
    preview.delivered > 0 ? `${preview.delivered.toLocaleString("en")} delivered` : "",
    preview.sending > 0 ? `${preview.sending.toLocaleString("en")} still sending` : "",
  ].filter(Boolean);
  const alone = left.length > 0 ? `; left alone: ${left.join(", ")}` : "";
  return `The filter selects ${selected}: ${sends}${alone}.`;
}

const STATE_WORDS: Record<ReplayAnswer["state"], string> = {
  running: "Running",
  paused: "Paused",
  cancelled: "Cancelled",
  done: "Done",
};

/** A replay's progress in words. */
export function progressSentence(replay: ReplayAnswer): string {
  const unit = replay.mode === "routes" ? "event" : "message";
  const parts = [
    `${STATE_WORDS[replay.state]}: ${replay.walked.toLocaleString("en")} of ` +
    `${replay.total.toLocaleString("en")} looked at`,
    `${plural(replay.sent, unit)} sent to the lanes`,
    `${replay.skipped.toLocaleString("en")} left alone`,
  ];
  if (replay.expired > 0) parts.push(`${replay.expired.toLocaleString("en")} past retention`);
  return `${parts.join(", ")}.`;
}
