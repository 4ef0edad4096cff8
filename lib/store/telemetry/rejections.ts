/**
 * Rejected webhook requests, kept so the console can show why a sender's events do not arrive.
 * Anyone on the internet can send a rejected request, so the store never grows with them: the
 * ingress samples before it writes (`lib/ingest/rejection_sampler.ts`), each record expires
 * after {@link REJECTION_RETENTION_MS}, and each write trims its scope to the newest
 * {@link MAX_REJECTIONS_KEPT} records. A record holds a few bounded strings and never a body.
 * Group records are keyed by the group's internal id, so they follow renames and never pass to
 * a later group with the same id.
 */
import type { Kv, KvKey } from "../backend/types.ts";
import { ulid } from "../../ulid.ts";
import { listValues } from "../batch.ts";
import { rejectionKey, type RejectionScope, rejectionsPrefix } from "../keys.ts";

export type { RejectionScope } from "../keys.ts";

/** Records kept per scope (a group, or the global bucket); older ones are dropped. */
export const MAX_REJECTIONS_KEPT = 100;

/** How long a record is kept: 7 days. */
export const REJECTION_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** One rejected request as stored: every string already bounded by the ingress. */
export interface RejectionRecord {
  id: string;
  /** Unix milliseconds. */
  at: number;
  /** Why it was refused (`lib/ingest/rejection_reasons.ts`). */
  reason: string;
  /** The answer's status. */
  status: number;
  /** The sender the headers suggest: `github`, `gitea`, `custom` or `unknown`. */
  provider: string;
  /** The connection's address, when the server knows it. */
  address?: string;
  /** The first `X-Forwarded-For` entry (as sent; not verified). */
  forwardedFor?: string;
  userAgent?: string;
  contentType?: string;
  /** The event header's value. */
  event?: string;
  deliveryId?: string;
  /** The group id of an address that names no group (global bucket only). */
  unknownGroup?: string;
}

/** A record's fields before it gets its id. */
type NewRejection = Omit<RejectionRecord, "id">;

/**
 * Stores one rejected request under `scope` (expiring after the retention), then drops the
 * oldest records beyond {@link MAX_REJECTIONS_KEPT}. The caller samples first.
 */
export async function storeRejection(
  kv: Kv,
  scope: RejectionScope,
  rejection: NewRejection,
): Promise<void> {
  const record: RejectionRecord = { id: ulid(rejection.at), ...rejection };
  await kv.set(rejectionKey(scope, record.id), record, { expireIn: REJECTION_RETENTION_MS });
  const beyond: KvKey[] = [];
  let seen = 0;
  for await (const entry of kv.list({ prefix: rejectionsPrefix(scope) }, { reverse: true })) {
    if (++seen > MAX_REJECTIONS_KEPT) beyond.push(entry.key);
  }
  for (let start = 0; start < beyond.length; start += 10) {
    const op = kv.atomic();
    for (const key of beyond.slice(start, start + 10)) op.delete(key);
    await op.commit();
  }
}

/** The records of a scope, newest first, at most `limit`. */
export async function listRejections(
  kv: Kv,
  scope: RejectionScope,
  limit = MAX_REJECTIONS_KEPT,
): Promise<RejectionRecord[]> {
  const records: RejectionRecord[] = [];
  for await (
    const record of listValues<RejectionRecord>(kv, { prefix: rejectionsPrefix(scope) }, {
      reverse: true,
      limit,
    })
  ) {
    records.push(record);
  }
  return records;
}
