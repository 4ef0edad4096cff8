/**
 * The "Rejected" lists: webhook requests the ingress refused, newest first, each with its
 * reason in words and what to change. A group's owners and admins see the group's own list; a
 * super admin also sees the global list (the instance-wide `/webhook` and addresses naming no
 * group). The lists are sampled and bounded (`lib/store/telemetry/rejections.ts`), so they show what
 * goes wrong, not every request.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { REJECTION_TEXTS, type RejectionReason } from "../ingest/answers.ts";
import { REJECTIONS_PER_MINUTE } from "../ingest/rejection_sampler.ts";
import {
  listRejections,
  MAX_REJECTIONS_KEPT,
  REJECTION_RETENTION_MS,
  type RejectionRecord,
  type RejectionScope,
} from "../store/telemetry/rejections.ts";
import { requireGroupEntry } from "./guards.ts";

/** One rejected request as the console shows it. */
export interface RejectionView extends RejectionRecord {
  /** What went wrong, in words. */
  words: string;
  /** What the sender's owner changes. */
  fix: string;
}

/** A rejected list with its bounds. */
export interface RejectionList {
  items: RejectionView[];
  /** At most this many are kept per list. */
  keptAtMost: number;
  /** Each record is kept this many days. */
  keptDays: number;
  /** At most this many a minute are recorded per list (by each server instance). */
  perMinute: number;
}

function viewOf(record: RejectionRecord): RejectionView {
  const text = Object.hasOwn(REJECTION_TEXTS, record.reason)
    ? REJECTION_TEXTS[record.reason as RejectionReason]
    : { words: record.reason, fix: "" };
  return { ...record, ...text };
}

async function listOf(kv: Kv, scope: RejectionScope): Promise<RejectionList> {
  const records = await listRejections(kv, scope);
  return {
    items: records.map(viewOf),
    keptAtMost: MAX_REJECTIONS_KEPT,
    keptDays: REJECTION_RETENTION_MS / (24 * 60 * 60 * 1000),
    perMinute: REJECTIONS_PER_MINUTE,
  };
}

/** `GET /admin/api/groups/:id/rejections`: the group's rejected requests (owner or admin). */
export async function listGroupRejections(
  kv: Kv,
  principal: Principal,
  groupId: string,
): Promise<RejectionList> {
  const entry = await requireGroupEntry(kv, principal, groupId, "edit");
  return await listOf(kv, { type: "group", internalId: entry.internalId });
}

/**
 * `GET /admin/api/rejections`: the global list, requests to `/webhook` and to addresses naming
 * no group (super admin).
 */
export async function listGlobalRejections(
  kv: Kv,
  principal: Principal,
): Promise<RejectionList> {
  if (!principal.superAdmin) {
    throw new HttpError(403, "Only a super admin sees the instance's rejected requests");
  }
  return await listOf(kv, { type: "global" });
}
