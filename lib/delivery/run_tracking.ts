/**
 * Tracking of workflow run notifications, as message tracking does for pull requests and
 * issues: once a run's notification (or a deployment review's) is sent or edited, its place is
 * recorded with the run it is about, so its buttons know what they act on. Only a notification
 * whose event reached its group through a binding to the repository (`eventBoundToGroup`) is
 * recorded; any other stays a notification without actions.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Logger } from "../log.ts";
import { loadEvent } from "../store/delivery/events.ts";
import { getGroup } from "../store/config/groups.ts";
import type { NewMessageRef } from "../store/delivery/message_refs.ts";
import { historyIdOf, type SendLog } from "../store/delivery/send_logs.ts";
import type { PlatformAdapter } from "../platform/adapter.ts";
import { eventBoundToGroup } from "./group_binding.ts";
import { RUN_EVENT_KINDS, runSubjectOfEvent } from "./run_subject.ts";

/**
 * What to record about the run notification `log` sent: its place and run when it was sent,
 * has a message id and its group may act on the run; else null. Never throws: tracking must
 * not disturb delivery.
 */
export async function sentRunMessageRef(
  kv: Kv,
  log: SendLog,
  adapter: Pick<PlatformAdapter, "channelOf">,
  logger?: Logger,
): Promise<NewMessageRef | null> {
  if (log.status !== "ok" || !log.messageId || !RUN_EVENT_KINDS.has(log.event)) return null;
  if (log.digestId !== undefined) return null; // a digest is about many runs
  try {
    const event = await loadEvent(kv, log.eventId);
    const subject = event && runSubjectOfEvent(event)?.subject;
    if (!subject) return null;
    const group = await getGroup(kv, log.groupId);
    if (!group || !eventBoundToGroup(event, group, subject.repository)) return null;
    const chatId = adapter.channelOf(log.target);
    return {
      place: { platform: log.platform, chatId, messageId: log.messageId },
      subject: {
        ...subject,
        routeId: log.routeId,
        groupId: log.groupId,
        groupInternalId: historyIdOf(log),
      },
    };
  } catch (error) {
    logger?.warn("run message tracking failed", { logId: log.id, error: String(error) });
    return null;
  }
}
