/**
 * What a bulk replay does with each selected send log, shared by its preview and its walk.
 * Re-sending the same messages puts back `failed` and `dead` units (delivered ones have no
 * stored body any more, and units still being sent are left to their lane). Replaying
 * through the current routes accepts each selected event again once, unless one of the
 * event's units in the group was delivered (then only with `includeDelivered`) or is still
 * being sent: so nothing that succeeded is sent twice unless the person asked for it.
 */
import type { Kv } from "../store/backend/types.ts";
import type { ReplayMode } from "../store/delivery/replays.ts";
import { type ReplayFilter, selectedLogs } from "../store/delivery/replay_selection.ts";
import { historyIdOf, listDeliveryLogs, type SendLog } from "../store/delivery/send_logs.ts";

/** Most send logs one replay may select. */
export const MAX_REPLAY_SELECTION = 10_000;

/** What a replay does with a log (messages) or an event (routes). */
export type Verdict = "send" | "delivered" | "sending";

/** The verdict on one unit when the same messages are sent again. */
export function unitVerdict(log: SendLog): Verdict {
  if (log.status === "failed" || log.status === "dead") return "send";
  return log.status === "ok" ? "delivered" : "sending";
}

/** The verdict on the event of `log` when it is replayed through the current routes. */
export async function eventVerdict(
  kv: Kv,
  log: SendLog,
  includeDelivered: boolean,
): Promise<Verdict> {
  const group = historyIdOf(log);
  const units = (await listDeliveryLogs(kv, log.deliveryId)).filter((unit) =>
    unit.eventId === log.eventId && historyIdOf(unit) === group
  );
  if (units.some((unit) => unit.status === "retrying")) return "sending";
  if (!includeDelivered && units.some((unit) => unit.status === "ok")) return "delivered";
  return "send";
}

/** What a replay would do, counted before it starts. */
export interface ReplayPreview {
  /** Send logs the filter selects. */
  selected: number;
  /** Distinct events among them. */
  events: number;
  /** Messages (messages mode) or events (routes mode) the replay would send. */
  toSend: number;
  /** Left alone because they were delivered. */
  delivered: number;
  /** Left alone because they are still being sent. */
  sending: number;
}

/** The selection is larger than {@link MAX_REPLAY_SELECTION}. */
export class SelectionTooLarge extends Error {
  constructor() {
    super(
      `The filter selects more than ${MAX_REPLAY_SELECTION} messages: narrow it ` +
        "(a shorter time range, a route, a target or a status)",
    );
  }
}

/** Counts what a replay of `filter` would do; throws {@link SelectionTooLarge} past the bound. */
export async function previewReplay(
  kv: Kv,
  groupInternalId: string,
  filter: ReplayFilter,
  mode: ReplayMode,
  includeDelivered: boolean,
): Promise<ReplayPreview> {
  const preview: ReplayPreview = { selected: 0, events: 0, toSend: 0, delivered: 0, sending: 0 };
  let lastEventId: string | undefined;
  for await (const log of selectedLogs(kv, groupInternalId, filter)) {
    if (++preview.selected > MAX_REPLAY_SELECTION) throw new SelectionTooLarge();
    const newEvent = log.eventId !== lastEventId;
    lastEventId = log.eventId;
    if (newEvent) preview.events++;
    if (mode === "routes" && !newEvent) continue;
    const verdict = mode === "routes"
      ? await eventVerdict(kv, log, includeDelivered)
      : unitVerdict(log);
    if (verdict === "send") preview.toSend++;
    else preview[verdict]++;
  }
  return preview;
}
