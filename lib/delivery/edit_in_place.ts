/**
 * Edit in place. Something that progresses (a workflow run, a check suite, a deployment) shows
 * as one message per target that is edited as it moves on, and a pull request's or issue's
 * first notification is its card, edited when the pull request or issue is merged, closed or
 * reopened (with its buttons), while a short notice of that event is still posted.
 *
 * At fan-out a unit's body names the subject key it edits; in the lane the unit edits the
 * message recorded for (its group's internal id, place, key) or posts one and records it, so a
 * group never edits another group's message. Units of one target run in
 * order in its lane, so an edit never overtakes the post it edits, and each platform call is
 * reserved from the rate limiter like a send (`chat_calls.ts`). A message that is gone (or may not be edited) is posted anew.
 */
import { sha256Hex } from "../crypto.ts";
import type { Message } from "../format/message.ts";
import type { MentionedUsers } from "../format/mentions.ts";
import type { SendResult } from "../platform/send_result.ts";
import {
  getSubjectMessage,
  IN_PLACE_LIFETIME_MS,
  saveFirstSubjectMessage,
  saveSubjectMessage,
  type SubjectPlace,
} from "../store/delivery/subject_messages.ts";
import { historyIdOf, type SendLog } from "../store/delivery/send_logs.ts";
import { getMessageRef } from "../store/delivery/message_refs.ts";
import type { ForgeEvent, Route, Target } from "../types.ts";
import { subjectOfPayload } from "../format/subject.ts";
import type { ChatCalls } from "./chat_calls.ts";
import type { DeliveryContext } from "./context.ts";
import { sendUnit } from "./noise.ts";
import { ALL_BUTTONS, type ChatButtons, renderFor } from "./render.ts";
import { cardWithOutcome, MAX_KEPT_BODY, reviewCardOf, reviewOutcomeOf } from "./review_outcome.ts";

/**
 * How a unit uses its subject's message: `progress` edits it (or posts it), `card` posts and
 * becomes the card when there is none yet, `card_update` edits the card and posts a notice.
 */
type InPlaceMode = "progress" | "card" | "card_update";

/** What a unit of an event edits in place: the mode and the hashed subject key. */
interface InPlacePlan {
  mode: InPlaceMode;
  key: string;
  /**
   * How far a progressing subject is (0 queued, 1 running, 2 done; a workflow run's later
   * attempts 3 and on), when the event says: a message already showing a later stage is not
   * edited back by an event that arrives late.
   */
  stage?: ProgressStage;
  /** A deployment review card: its rendered body is kept for the outcome edit. */
  keepsBody?: true;
  /** A finished deployment: the review card (its key) it edits, and the line it adds. */
  finishes?: { key: string; line: string };
}

/**
 * Stages of something that progresses, in order: 0 queued, 1 running, 2 done, each after the
 * stages of a workflow run's earlier attempts.
 */
type ProgressStage = number;

/** A unit body that edits in place: the plan, the message, and the notice of a card update. */
interface InPlaceBody {
  inPlace: InPlacePlan;
  message: unknown;
  notice?: unknown;
}

/**
 * A send result that may say which message was edited, or that nothing was sent because the
 * message already shows a later stage.
 */
type InPlaceResult = SendResult & { editedMessageId?: string; skippedAsOlder?: true };

/** Event kinds that progress, and where their payload keeps the id of what progresses. */
const PROGRESS_IDS: ReadonlyMap<string, { object: string; family: string }> = new Map([
  ["workflow_run", { object: "workflow_run", family: "workflow_run" }],
  ["check_suite", { object: "check_suite", family: "check_suite" }],
  ["deployment", { object: "deployment", family: "deployment" }],
  ["deployment_status", { object: "deployment", family: "deployment" }],
]);

/** Stages by what the payload says: the action, or a deployment status's state. */
const STAGES: ReadonlyMap<string, ProgressStage> = new Map([
  ["requested", 0],
  ["rerequested", 0],
  ["created", 0],
  ["queued", 0],
  ["pending", 0],
  ["waiting", 0],
  ["in_progress", 1],
  ["completed", 2],
  ["success", 2],
  ["failure", 2],
  ["error", 2],
  ["inactive", 2],
]);

/** Highest run attempt that orders stages (GitHub allows far fewer re-runs). */
const MAX_ATTEMPT = 1000;

/** A workflow run's attempt (1 for the first run, more after a re-run), when its payload says. */
function attemptOf(event: ForgeEvent): number | undefined {
  if (event.kind !== "workflow_run") return undefined;
  const attempt = record(event.payload.workflow_run)?.run_attempt;
  return typeof attempt === "number" && Number.isSafeInteger(attempt) && attempt >= 1 &&
      attempt <= MAX_ATTEMPT
    ? attempt
    : undefined;
}

/**
 * The stage of a progress event, or undefined when its payload does not say. A re-run
 * workflow run starts over in a later attempt, so its stages come after every stage of the
 * attempts before it ((attempt - 1) × 3 + stage), and its card follows the new attempt.
 */
function stageOf(event: ForgeEvent): ProgressStage | undefined {
  const said = event.kind === "deployment_status"
    ? record(event.payload.deployment_status)?.state
    : event.action;
  const stage = typeof said === "string" ? STAGES.get(said) : undefined;
  const attempt = attemptOf(event);
  return stage === undefined || attempt === undefined ? stage : (attempt - 1) * 3 + stage;
}

/** Event kinds whose first notification about a pull request or issue is its card. */
const CARD_KINDS: ReadonlySet<string> = new Set(["pull_request", "issues"]);

/** Actions that change a card's state. */
const CARD_UPDATES: ReadonlySet<string> = new Set(["closed", "reopened"]);

const MAX_REPOSITORY_LENGTH = 200;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : null;
}

function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  return typeof value === "string" && /^\d{1,20}$/.test(value) ? value : null;
}

function repositoryOf(payload: Record<string, unknown>): string | null {
  const name = record(payload.repository)?.full_name;
  return typeof name === "string" && name.length > 0 && name.length <= MAX_REPOSITORY_LENGTH
    ? name
    : null;
}

/** A subject's key within its group's records: by provider, ingress (as keyed before scopes named
 * the group's internal id, so keys stay as they were) and `parts`. */
async function keyOf(event: ForgeEvent, ...parts: string[]): Promise<string> {
  const { scope } = event;
  const ingress = scope.type === "global" ? scope : { type: scope.type, groupId: scope.groupId };
  return (await sha256Hex(JSON.stringify([event.provider, ingress, ...parts]))).slice(0, 40);
}

/** The key of the review card of run `runId` waiting on `environment` (any case). */
async function reviewKeyOf(
  event: ForgeEvent,
  repository: string,
  [runId, environment]: [string, string],
): Promise<string> {
  return await keyOf(event, repository, "deployment_review", runId, environment.toLowerCase());
}

/** What the units of `event` edit in place, or null when they simply post. */
export async function inPlacePlanOf(event: ForgeEvent): Promise<InPlacePlan | null> {
  if (event.provider === "custom") return null;
  const repository = repositoryOf(event.payload);
  if (!repository) return null;
  const reviewCard = reviewCardOf(event);
  if (reviewCard) {
    return { mode: "card", key: await reviewKeyOf(event, repository, reviewCard), keepsBody: true };
  }
  const progress = PROGRESS_IDS.get(event.kind);
  if (progress) {
    const id = idOf(record(event.payload[progress.object])?.id);
    if (!id) return null;
    const stage = stageOf(event);
    const outcome = reviewOutcomeOf(event);
    return {
      mode: "progress",
      key: await keyOf(event, repository, progress.family, id),
      ...(stage === undefined ? {} : { stage }),
      ...(outcome
        ? {
          finishes: {
            key: await reviewKeyOf(event, repository, outcome.card),
            line: outcome.line,
          },
        }
        : {}),
    };
  }
  if (!CARD_KINDS.has(event.kind)) return null;
  const subject = subjectOfPayload(event.payload);
  if (!subject) return null;
  const key = await keyOf(event, repository, subject.kind, String(subject.number));
  return {
    mode: event.action !== undefined && CARD_UPDATES.has(event.action) ? "card_update" : "card",
    key,
  };
}

/** The short notice a card update posts: the title, link, colour and footer of the message. */
function noticeOf(message: Message): Message {
  const { title, url, color, footer, timestamp, mentions } = message;
  return {
    title,
    ...(url === undefined ? {} : { url }),
    ...(color === undefined ? {} : { color }),
    ...(footer === undefined ? {} : { footer }),
    ...(timestamp === undefined ? {} : { timestamp }),
    ...(mentions === undefined ? {} : { mentions }),
  };
}

/**
 * The body a unit stores: the rendered message, wrapped with the plan when it edits in place
 * (a card update also renders its notice, without buttons). Buttons only where `buttons`
 * allows them.
 */
export function renderUnitBody(
  plan: InPlacePlan | null,
  message: Message,
  route: Route,
  target: Target,
  event: ForgeEvent,
  mentioned: MentionedUsers,
  buttons: ChatButtons = ALL_BUTTONS,
): unknown {
  const rendered = renderFor(message, route, target, event, mentioned, buttons);
  if (!plan || rendered === null) return rendered;
  const body: InPlaceBody = { inPlace: plan, message: rendered };
  if (plan.mode === "card_update") {
    body.notice = renderFor(noticeOf(message), route, target, undefined, mentioned);
  }
  return body;
}

function isInPlaceBody(body: unknown): body is InPlaceBody {
  const value = record(body);
  const plan = record(value?.inPlace);
  return typeof plan?.key === "string" &&
    (plan.mode === "progress" || plan.mode === "card" || plan.mode === "card_update");
}

/**
 * Where the unit's message of subject `key` is recorded: under its group's internal id, in its
 * target's place as the platform keeps subjects apart (a Discord channel or thread, a Telegram
 * chat and topic).
 */
function placeOf(calls: ChatCalls, log: SendLog, key: string): SubjectPlace {
  return {
    use: "in_place",
    groupInternalId: historyIdOf(log),
    platform: log.platform,
    place: calls.adapter.placeOf(log.target),
    subjectKey: key,
  };
}

/**
 * Sends a unit's body to its target: a plain body is posted; an in-place body edits or posts
 * as its mode says, recording the message it posts before the outcome is recorded, so the
 * next unit of the lane finds it.
 */
export async function sendOrEdit(
  ctx: DeliveryContext,
  calls: ChatCalls,
  log: SendLog,
  body: unknown,
): Promise<InPlaceResult> {
  if (!isInPlaceBody(body)) return await sendUnit(ctx, calls, log, body);
  const at = placeOf(calls, log, body.inPlace.key);
  const recorded = await getSubjectMessage(ctx.kv, at, IN_PLACE_LIFETIME_MS);
  /** Records `messageId` as the subject's message, as edited by this unit when `edited`. */
  const record = (messageId: string, edited: boolean, shows?: number) =>
    saveSubjectMessage(ctx.kv, at, {
      messageId,
      ...(edited ? { editedBy: log.id } : {}),
      ...(shows === undefined ? {} : { stage: shows }),
      updatedAt: ctx.now(),
    }, IN_PLACE_LIFETIME_MS);
  const { stage } = body.inPlace;
  const post = async (): Promise<InPlaceResult> => {
    const posted = await sendUnit(ctx, calls, log, body.message);
    if (posted.kind === "sent" && posted.messageId) {
      if (body.inPlace.mode === "card") {
        const kept = body.inPlace.keepsBody && JSON.stringify(body.message).length <= MAX_KEPT_BODY
          ? { body: body.message }
          : {};
        const first = { messageId: posted.messageId, ...kept, updatedAt: ctx.now() };
        await saveFirstSubjectMessage(ctx.kv, at, first, IN_PLACE_LIFETIME_MS);
      } else await record(posted.messageId, true, stage);
    }
    return posted;
  };
  if (!recorded || body.inPlace.mode === "card") {
    return await finishReview(ctx, calls, log, body.inPlace, await post());
  }
  if (body.inPlace.mode === "progress") {
    if (stage !== undefined && recorded.stage !== undefined && stage < recorded.stage) {
      // A late event (GitHub does not promise order): the message already shows a later stage.
      return { kind: "sent", httpStatus: 200, messageId: recorded.messageId, skippedAsOlder: true };
    }
    const edited = await calls.edit(log.target, recorded.messageId, body.message);
    if (edited.kind === "gone" || edited.kind === "rejected") {
      return await finishReview(ctx, calls, log, body.inPlace, await post());
    }
    if (edited.kind !== "sent") return edited;
    if (stage !== undefined && stage !== recorded.stage) {
      await record(recorded.messageId, true, stage);
    }
    const result = {
      ...edited,
      messageId: recorded.messageId,
      editedMessageId: recorded.messageId,
    };
    return await finishReview(ctx, calls, log, body.inPlace, result);
  }
  const recordEdit = () => record(recorded.messageId, true);
  return await updateCard(ctx, calls, log, body, recorded, recordEdit, post);
}

/**
 * After a finished deployment's unit was sent: edits the review card of its run in the same
 * place (once per unit, even across retries) to add the outcome. A card that is gone or may
 * not be edited stays as it is; any other failure is the unit's, so the lane tries again.
 */
async function finishReview(
  ctx: DeliveryContext,
  calls: ChatCalls,
  log: SendLog,
  plan: InPlacePlan,
  sent: InPlaceResult,
): Promise<InPlaceResult> {
  if (sent.kind !== "sent" || !plan.finishes) return sent;
  const at = placeOf(calls, log, plan.finishes.key);
  const card = await getSubjectMessage(ctx.kv, at, IN_PLACE_LIFETIME_MS);
  if (!card?.body || card.editedBy === log.id) return sent;
  const ref = await getMessageRef(ctx.kv, {
    platform: log.platform,
    chatId: calls.adapter.channelOf(log.target),
    messageId: card.messageId,
  });
  const edit = cardWithOutcome(log.platform, card.body, plan.finishes.line, ref?.decision);
  if (edit === null) return sent;
  const edited = await calls.edit(log.target, card.messageId, edit);
  if (edited.kind === "gone" || edited.kind === "rejected") return sent;
  if (edited.kind !== "sent") return edited;
  await saveSubjectMessage(ctx.kv, at, {
    ...card,
    editedBy: log.id,
    updatedAt: ctx.now(),
  }, IN_PLACE_LIFETIME_MS);
  return sent;
}

/**
 * Edits the card (once per unit, even across retries), then posts the notice; the notice's
 * call reserves its own turn from the rate limiter (`chat_calls.ts`).
 */
async function updateCard(
  ctx: DeliveryContext,
  calls: ChatCalls,
  log: SendLog,
  body: InPlaceBody,
  recorded: { messageId: string; editedBy?: string },
  recordEdit: () => Promise<void>,
  post: () => Promise<InPlaceResult>,
): Promise<InPlaceResult> {
  if (recorded.editedBy !== log.id) {
    const edited = await calls.edit(log.target, recorded.messageId, body.message);
    if (edited.kind === "gone" || edited.kind === "rejected") return await post();
    if (edited.kind !== "sent") return edited;
    await recordEdit();
  }
  const notice = await sendUnit(ctx, calls, log, body.notice ?? body.message);
  return notice.kind === "sent" ? { ...notice, editedMessageId: recorded.messageId } : notice;
}

/** The send log after an attempt, saying which message the attempt edited, if any. */
export function noteEdit(log: SendLog, result: InPlaceResult): SendLog {
  const { edited: _edited, editedMessageId: _editedMessageId, skipped: _skipped, ...rest } = log;
  if (result.kind !== "sent") return rest;
  if (result.skippedAsOlder) {
    const { httpStatus: _none, ...unsent } = rest;
    return { ...unsent, skipped: "the message already shows a later state" };
  }
  return result.editedMessageId
    ? { ...rest, edited: true, editedMessageId: result.editedMessageId }
    : rest;
}
