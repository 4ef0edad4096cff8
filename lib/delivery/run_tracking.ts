/**
 * Tracking of workflow run notifications, as message tracking does for pull requests and
 * issues: once a run's notification (or a deployment review's) is sent or edited, its place is
 * recorded with the run it is about, so its buttons know what they act on. Only a notification
 * whose event reached its group through a binding to the repository (`eventBoundToGroup`) is
 * recorded; any other stays a notification without actions.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Logger } from "../log.ts";
import type { NewMessageRef } from "../store/delivery/message_refs.ts";
import type { SendLog } from "../store/delivery/send_logs.ts";
import type { PlatformAdapter } from "../platform/adapter.ts";
import { type SubjectReader, trackedMessageRef } from "./tracking.ts";
import { RUN_EVENT_KINDS, runSubjectOfEvent } from "./run_subject.ts";

const RUNS: SubjectReader = {
  kinds: RUN_EVENT_KINDS,
  subjectOf: (event) => runSubjectOfEvent(event)?.subject,
  failure: "run message tracking failed",
};

/** {@link trackedMessageRef} for a workflow run's (or a deployment review's) notification. */
export async function sentRunMessageRef(
  kv: Kv,
  log: SendLog,
  adapter: Pick<PlatformAdapter, "channelOf">,
  logger?: Logger,
): Promise<NewMessageRef | null> {
  return await trackedMessageRef(kv, log, adapter, RUNS, logger);
}
