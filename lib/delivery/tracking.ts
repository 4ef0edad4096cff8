/**
 * Message tracking: once a notification about a pull request or issue is sent, its place
 * (platform, the chat the adapter says it landed in, message id) is recorded with what it is
 * about, so buttons and replies on it know what they act on. The subject comes from the event's payload. The delivery worker writes
 * the record in the commit that records the unit's outcome. Only a notification its group may
 * act on is recorded: its card links to the item its repository and number name, and the event
 * reached the group through a binding to that repository (`eventBoundToGroup`); any other stays
 * a notification without actions.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Logger } from "../log.ts";
import { loadEvent } from "../store/delivery/events.ts";
import { getGroup } from "../store/config/groups.ts";
import type { NewMessageRef, NotificationSubject } from "../store/delivery/message_refs.ts";
import type { ForgeEvent } from "../types.ts";
import { historyIdOf, type SendLog } from "../store/delivery/send_logs.ts";
import type { PlatformAdapter } from "../platform/adapter.ts";
import { actionableSubject, SUBJECT_KINDS } from "../format/subject.ts";
import { eventBoundToGroup } from "./group_binding.ts";

/** What a notification is about, as read from its event: each kind without its route and group. */
type SubjectFields = NotificationSubject extends infer Subject
  ? Subject extends NotificationSubject ? Omit<Subject, "routeId" | "groupId" | "groupInternalId">
  : never
  : never;

/** What a kind of notification is about, as tracking reads it from the event. */
export interface SubjectReader {
  /** The event kinds whose notifications it tracks. */
  kinds: ReadonlySet<string>;
  /** The subject of an event, without the route and group it was sent for; null if none. */
  subjectOf(event: ForgeEvent): SubjectFields | null | undefined;
  /** What a failure is logged as. */
  failure: string;
}

/**
 * What to record about the notification `log` sent: its place and subject when it was sent,
 * has a message id and is about a subject (as `reader` reads it) its group may act on; else null.
 * Never throws: tracking must not disturb delivery.
 */
export async function trackedMessageRef(
  kv: Kv,
  log: SendLog,
  adapter: Pick<PlatformAdapter, "channelOf">,
  reader: SubjectReader,
  logger?: Logger,
): Promise<NewMessageRef | null> {
  if (log.status !== "ok" || !log.messageId || !reader.kinds.has(log.event)) return null;
  if (log.digestId !== undefined) return null; // a digest is about many subjects
  try {
    const event = await loadEvent(kv, log.eventId);
    const subject = event && reader.subjectOf(event);
    if (!subject) return null;
    const group = await getGroup(kv, log.groupId);
    if (!group || !eventBoundToGroup(event, group, subject.repository)) return null;
    return {
      place: {
        platform: log.platform,
        chatId: adapter.channelOf(log.target),
        messageId: log.messageId,
      },
      subject: {
        ...subject,
        routeId: log.routeId,
        groupId: log.groupId,
        groupInternalId: historyIdOf(log),
      },
    };
  } catch (error) {
    logger?.warn(reader.failure, { logId: log.id, error: String(error) });
    return null;
  }
}

const PULLS_AND_ISSUES: SubjectReader = {
  kinds: SUBJECT_KINDS,
  subjectOf: (event) => actionableSubject(event.payload)?.subject,
  failure: "message tracking failed",
};

/** {@link trackedMessageRef} for a notification about a pull request or issue. */
export async function sentMessageRef(
  kv: Kv,
  log: SendLog,
  adapter: Pick<PlatformAdapter, "channelOf">,
  logger?: Logger,
): Promise<NewMessageRef | null> {
  return await trackedMessageRef(kv, log, adapter, PULLS_AND_ISSUES, logger);
}
