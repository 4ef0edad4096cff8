/**
 * Threads (docs/noise.md): for a route with `threads`, the first event of a pull request or
 * issue posts its card as usual; later events of the same subject (comments, reviews, pushes
 * to its branch, CI runs that name it) follow the card as the platform's adapter says
 * (`threadStyle`: in a thread started from the card on Discord, as replies to it on Telegram);
 * and events that carry the subject's state (`pull_request`, `issues`) also replace the card
 * with the latest message. A target that cannot hold threads (a Discord thread) gets the events
 * as usual.
 *
 * Every post, thread start and card edit goes through the target guard for the unit's group
 * and target (`throughGuard`) and the rate limiter (`chat_calls.ts`). Cards belong to the group's internal id, so a group that
 * takes a deleted group's id never replies under, or edits, the old group's cards.
 */
import { subjectOfPayload } from "../format/subject.ts";
import type { SendResult } from "../platform/send_result.ts";
import { saveMessageRef } from "../store/delivery/message_refs.ts";
import { historyIdOf, type SendLog } from "../store/delivery/send_logs.ts";
import {
  type CardAt,
  type CardPlace,
  getSubjectMessage,
  saveCard,
  type SubjectMessage,
  subjectOfHead,
} from "../store/delivery/subject_messages.ts";
import { laneKeyFor } from "../target_ref.ts";
import type { ForgeEvent, Target } from "../types.ts";
import { editAsSendResult } from "../platform/edit_result.ts";
import type { ChatCalls } from "./chat_calls.ts";
import type { NoiseDeps } from "./digest.ts";
import { asSendResult, throughGuard, unitOwner } from "./target_guard.ts";

/** Event kinds whose payload holds the subject's whole state, so they refresh its card. */
const STATE_KINDS: ReadonlySet<string> = new Set(["pull_request", "issues"]);
/** CI events and where their payload lists the pull requests they ran for. */
const CI_OBJECTS = new Map([
  ["workflow_run", "workflow_run"],
  ["check_suite", "check_suite"],
  ["check_run", "check_run"],
]);
const MAX_BRANCH_CHARS = 255;
/** Discord's answer when the message already has a thread (a start whose answer was lost). */
const THREAD_EXISTS = /already (has been created|exists)/i;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : null;
}

function repositoryOf(event: ForgeEvent): string | null {
  const name = record(event.payload.repository)?.full_name;
  return typeof name === "string" && name.includes("/") && name.length <= 140 ? name : null;
}

/** The pull request a CI event ran for, when it names exactly one. */
function ciPullNumber(event: ForgeEvent): number | null {
  const field = CI_OBJECTS.get(event.kind);
  if (!field) return null;
  const pulls = record(event.payload[field])?.pull_requests;
  if (!Array.isArray(pulls) || pulls.length !== 1) return null;
  const number = record(pulls[0])?.number;
  return typeof number === "number" && Number.isSafeInteger(number) && number > 0 ? number : null;
}

/** The branch a pull request event's head is, in its own repository (`owner/repo@refs/heads/x`). */
function headOf(event: ForgeEvent, repository: string): string | undefined {
  const head = record(record(event.payload.pull_request)?.head);
  const ref = head?.ref;
  if (typeof ref !== "string" || ref.length > MAX_BRANCH_CHARS) return undefined;
  if (record(head?.repo)?.full_name !== repository) return undefined;
  return `${repository}@refs/heads/${ref}`;
}

/** What an event is about, for threads: `owner/repo#12`, directly or through its branch. */
async function subjectKeyOf(
  deps: NoiseDeps & { retentionMs: number },
  place: CardPlace,
  event: ForgeEvent,
): Promise<string | null> {
  if (event.provider !== "github") return null;
  const repository = repositoryOf(event);
  if (!repository) return null;
  const subject = subjectOfPayload(event.payload);
  if (subject) return `${repository}#${subject.number}`;
  const pull = ciPullNumber(event);
  if (pull !== null) return `${repository}#${pull}`;
  const ref = event.payload.ref;
  if (event.kind === "push" && typeof ref === "string" && ref.length <= MAX_BRANCH_CHARS + 11) {
    return await subjectOfHead(deps.kv, place, `${repository}@${ref}`, deps.retentionMs);
  }
  return null;
}

/** A thread's name: the card's title when the body has one, else the subject. */
function threadName(body: unknown, subject: string): string {
  const title = (body as { embeds?: { title?: unknown }[] } | null)?.embeds?.[0]?.title;
  return typeof title === "string" && title.trim() !== "" ? title : subject;
}

/** How a threaded unit posts (to `target`, which may be a thread of the unit's target). */
type ThreadPost = (target: Target, body: unknown) => Promise<SendResult>;

/**
 * Sends a unit of a threaded route: its subject's card, or a reply to the card (and a fresh
 * card for state events). Null when the event has no subject or the target cannot hold
 * threads: the caller then sends it as usual.
 */
export async function sendThreaded(
  deps: NoiseDeps & { retentionMs: number },
  log: SendLog,
  event: ForgeEvent,
  body: unknown,
  calls: ChatCalls,
): Promise<SendResult | null> {
  const target = log.target;
  const style = calls.adapter.threadStyle(target);
  if (style === "none") return null;
  const place = {
    groupInternalId: historyIdOf(log),
    routeId: log.routeId,
    lane: laneKeyFor(target),
  };
  const subject = await subjectKeyOf(deps, place, event);
  if (!subject) return null;
  // Every post is the unit's group posting into its target (a thread of it: see the module).
  const guardedPost: ThreadPost = async (to, payload) =>
    asSendResult(
      await throughGuard(deps.targets, unitOwner(log), () => calls.post(to, payload, log.id)),
    );
  const at: CardAt = { use: "thread", ...place, subject };
  const card = await getSubjectMessage(deps.kv, at, deps.retentionMs);
  if (!card) {
    const result = await guardedPost(target, body);
    if (result.kind === "sent" && result.messageId !== undefined) {
      const repository = subject.slice(0, subject.lastIndexOf("#"));
      await saveCard(
        deps.kv,
        at,
        { messageId: result.messageId, title: threadName(body, subject), updatedAt: deps.now() },
        deps.retentionMs,
        headOf(event, repository),
      );
    }
    return result;
  }
  const result = style === "thread"
    ? await replyInThread(deps, { at, card, log, event, calls }, body, guardedPost)
    : await guardedPost(target, calls.adapter.asReply(body, card.messageId));
  if (result.kind === "sent" && STATE_KINDS.has(event.kind)) {
    const edited = await throughGuard(
      deps.targets,
      unitOwner(log),
      async () => editAsSendResult(await calls.edit(target, card.messageId, body)),
    );
    if (edited.kind !== "sent") {
      deps.log.warn("thread card not updated", {
        eventId: log.eventId,
        logId: log.id,
        error: edited.error,
      });
    }
  }
  return result;
}

/** A reply's context: where the card is, what it is about, and the unit replying. */
interface ReplyContext {
  at: CardAt;
  card: SubjectMessage;
  log: SendLog;
  event: ForgeEvent;
  calls: ChatCalls;
}

async function replyInThread(
  deps: NoiseDeps & { retentionMs: number },
  { at, card, log, event, calls }: ReplyContext,
  body: unknown,
  post: ThreadPost,
): Promise<SendResult> {
  const target = log.target;
  const subject = at.subject;
  let threadId = card.threadId;
  if (threadId === undefined) {
    const started = await throughGuard(
      deps.targets,
      unitOwner(log),
      () => calls.startThread(target, card.messageId, card.title ?? subject),
    );
    if (started.kind === "refused") {
      deps.log.warn("thread not started", {
        eventId: log.eventId,
        logId: log.id,
        error: started.error,
      });
      return asSendResult(started);
    }
    if (started.kind === "rejected" && !THREAD_EXISTS.test(started.error)) {
      deps.log.warn("thread not started; sent to the channel", {
        eventId: log.eventId,
        logId: log.id,
        error: started.error,
      });
      return await post(target, body);
    }
    if (started.kind !== "sent" && started.kind !== "rejected") return started;
    // A thread started from a message has the message's id, also when it existed already.
    threadId = started.kind === "sent" && started.messageId ? started.messageId : card.messageId;
    await saveCard(deps.kv, at, { ...card, threadId }, deps.retentionMs);
  }
  const thread = calls.adapter.inThread(target, threadId);
  const result = await post(thread, body);
  if (result.kind === "sent" && result.messageId !== undefined) {
    const repository = subject.slice(0, subject.lastIndexOf("#"));
    const number = Number(subject.slice(subject.lastIndexOf("#") + 1));
    await saveMessageRef(
      deps.kv,
      {
        platform: log.platform,
        chatId: calls.adapter.channelOf(thread),
        messageId: result.messageId,
      },
      {
        repository,
        kind: subjectOfPayload(event.payload)?.kind ?? "pull",
        number,
        routeId: log.routeId,
        groupId: log.groupId,
        groupInternalId: historyIdOf(log),
      },
    ).catch((error) =>
      deps.log.warn("thread reply not tracked", {
        eventId: log.eventId,
        logId: log.id,
        error: String(error),
      })
    );
  }
  return result;
}
