/**
 * Bulk replay in the admin API: count what a filter over a group's send logs selects, start a
 * replay of it (the same messages, or the events through the current routes), follow its
 * progress, pause, resume or cancel it. A replay reads and sends only its own group's history;
 * reading needs membership, starting and steering the right to edit the group. At most
 * {@link MAX_REPLAY_SELECTION} send logs per replay (400 beyond). Start, pause, resume and
 * cancel are audited (`replay.*`).
 */
import type { Kv, KvEntry } from "../store/backend/types.ts";
import type { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import {
  changeReplayState,
  getReplayEntry,
  listReplays,
  type Replay,
  type ReplayMode,
  type ReplayState,
  startReplay,
} from "../store/delivery/replays.ts";
import type { ReplayFilter } from "../store/delivery/replay_selection.ts";
import {
  MAX_REPLAY_SELECTION,
  previewReplay,
  type ReplayPreview,
  SelectionTooLarge,
} from "../delivery/replay_plan.ts";
import { monotonicUlids } from "../ulid.ts";
import { actorOf, requireGroupEntry, type Right } from "./guards.ts";
import type {
  replayPreviewQuerySchema,
  replayStartSchema,
  replayStateSchema,
} from "./replay_schemas.ts";

/** A replay as the API shows it: without the group's internal id or the walk's cursor. */
type PublicReplay = Omit<Replay, "groupInternalId" | "cursor" | "lastEventId">;

type Choice = z.output<typeof replayStartSchema> | z.output<typeof replayPreviewQuerySchema>;

const nextReplayId = monotonicUlids();

function publicReplay(
  { groupInternalId: _g, cursor: _c, lastEventId: _e, ...replay }: Replay,
): PublicReplay {
  return replay;
}

/** The filter, mode and option chosen, checked (400), with `to` at most `now`. */
function chosen(choice: Choice, now: number) {
  const mode: ReplayMode = choice.mode ?? "messages";
  const includeDelivered = choice.includeDelivered ?? false;
  if (includeDelivered && mode === "messages") {
    throw new HttpError(
      400,
      "includeDelivered needs mode routes: a delivered message's body is not kept, so only " +
        "its event can be sent again",
    );
  }
  const to = Math.min(choice.to ?? now, now);
  if (choice.from !== undefined && choice.from >= to) {
    throw new HttpError(400, "from must be before to (and before now)");
  }
  const filter: ReplayFilter = {
    status: choice.status ?? "undelivered",
    to,
    ...(choice.routeId === undefined ? {} : { routeId: choice.routeId }),
    ...(choice.target === undefined ? {} : { target: choice.target }),
    ...(choice.event === undefined ? {} : { event: choice.event }),
    ...(choice.from === undefined ? {} : { from: choice.from }),
  };
  return { filter, mode, includeDelivered };
}

async function counted(
  kv: Kv,
  internalId: string,
  { filter, mode, includeDelivered }: ReturnType<typeof chosen>,
): Promise<ReplayPreview> {
  try {
    return await previewReplay(kv, internalId, filter, mode, includeDelivered);
  } catch (error) {
    if (error instanceof SelectionTooLarge) throw new HttpError(400, error.message);
    throw error;
  }
}

/** `GET /admin/api/groups/:id/replays/preview`: what a replay of the filter would do. */
export async function previewGroupReplay(
  kv: Kv,
  principal: Principal,
  groupId: string,
  query: z.output<typeof replayPreviewQuerySchema>,
) {
  const internalId = (await requireGroupEntry(kv, principal, groupId, "read")).internalId;
  const preview = await counted(kv, internalId, chosen(query, Date.now()));
  return { ...preview, limit: MAX_REPLAY_SELECTION };
}

/** `POST /admin/api/groups/:id/replays`: starts a replay of the filter (202). */
export async function startGroupReplay(
  kv: Kv,
  principal: Principal,
  groupId: string,
  body: z.output<typeof replayStartSchema>,
): Promise<PublicReplay> {
  const internalId = (await requireGroupEntry(kv, principal, groupId, "edit")).internalId;
  const now = Date.now();
  const choice = chosen(body, now);
  const preview = await counted(kv, internalId, choice);
  const replay: Replay = {
    id: nextReplayId(now),
    groupId,
    groupInternalId: internalId,
    ...choice,
    state: "running",
    total: preview.selected,
    walked: 0,
    sent: 0,
    skipped: 0,
    expired: 0,
    createdBy: actorOf(principal),
    createdAt: now,
    updatedAt: now,
  };
  await startReplay(kv, replay, auditOf(principal, replay, "replay.start", now));
  return publicReplay(replay);
}

function auditOf(
  principal: Principal,
  replay: Replay,
  action: "replay.start" | "replay.pause" | "replay.resume" | "replay.cancel",
  now: number,
) {
  return newAuditEntry({
    actor: actorOf(principal),
    action,
    groupId: replay.groupId,
    target: `replay:${replay.id}`,
    detail: { mode: replay.mode, filter: replay.filter, total: replay.total, sent: replay.sent },
  }, now);
}

/** `GET /admin/api/groups/:id/replays`: the group's latest replays, newest first. */
export async function listGroupReplays(kv: Kv, principal: Principal, groupId: string) {
  const internalId = (await requireGroupEntry(kv, principal, groupId, "read")).internalId;
  return { items: (await listReplays(kv, internalId)).map(publicReplay) };
}

async function replayEntry(
  kv: Kv,
  principal: Principal,
  groupId: string,
  replayId: string,
  right: Right,
): Promise<KvEntry<Replay>> {
  const internalId = (await requireGroupEntry(kv, principal, groupId, right)).internalId;
  const entry = await getReplayEntry(kv, internalId, replayId);
  if (!entry) throw new HttpError(404, `Group ${groupId} has no replay ${replayId}`);
  return entry;
}

/** `GET /admin/api/groups/:id/replays/:replayId`: one replay and its progress. */
export async function getGroupReplay(
  kv: Kv,
  principal: Principal,
  groupId: string,
  replayId: string,
): Promise<PublicReplay> {
  return publicReplay((await replayEntry(kv, principal, groupId, replayId, "read")).value);
}

const TRANSITIONS = {
  pause: { from: ["running"], to: "paused", audit: "replay.pause" },
  resume: { from: ["paused"], to: "running", audit: "replay.resume" },
  cancel: { from: ["running", "paused"], to: "cancelled", audit: "replay.cancel" },
} as const satisfies Record<
  z.output<typeof replayStateSchema>["action"],
  { from: ReplayState[]; to: ReplayState; audit: Parameters<typeof auditOf>[2] }
>;

/**
 * `POST /admin/api/groups/:id/replays/:replayId/state`: pauses, resumes or cancels a replay
 * (409 when it is not in a state that allows it).
 */
export async function steerGroupReplay(
  kv: Kv,
  principal: Principal,
  groupId: string,
  replayId: string,
  { action }: z.output<typeof replayStateSchema>,
): Promise<PublicReplay> {
  const transition = TRANSITIONS[action];
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await replayEntry(kv, principal, groupId, replayId, "edit");
    if (!(transition.from as readonly ReplayState[]).includes(entry.value.state)) {
      throw new HttpError(409, `Cannot ${action} a replay that is ${entry.value.state}`);
    }
    const now = Date.now();
    const next: Replay = { ...entry.value, state: transition.to, updatedAt: now };
    if (await changeReplayState(kv, entry, next, auditOf(principal, next, transition.audit, now))) {
      return publicReplay(next);
    }
  }
  throw new HttpError(409, `Replay ${replayId} kept changing; try again`);
}
