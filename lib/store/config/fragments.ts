/**
 * A group's named filter fragments, stored together in one record
 * `["fragments", groupId]`. One record makes a replacement a single atomic write (readers see
 * the old list or the new one, never a mix) and gives one versionstamp for the optimistic check.
 */
import type { Kv } from "../backend/types.ts";
import { MAX_FRAGMENTS_BYTES } from "../../limits.ts";
import type { Fragment } from "../../types.ts";
import { addAuditEntry, type AuditEntry, currentInternalIds } from "../telemetry/audit.ts";
import { fragmentsKey } from "../keys.ts";

/** The value at `["fragments", groupId]`. */
export interface FragmentsRecord {
  fragments: Fragment[];
  /** Unix milliseconds. */
  updatedAt: number;
}

/** A group's fragments with the record's versionstamp (null when none were ever stored). */
interface StoredFragments {
  fragments: Fragment[];
  versionstamp: string | null;
}

/** Outcome of a replacement; `conflict` means the fragments changed since they were read. */
type ReplaceFragmentsResult =
  | { ok: true; versionstamp: string; count: number }
  | { ok: false; reason: "conflict" }
  | { ok: false; reason: "too_large"; limit: number };

const encoder = new TextEncoder();

/** The group's fragments, in stored order. */
export async function getFragments(kv: Kv, groupId: string): Promise<StoredFragments> {
  const entry = await kv.get<FragmentsRecord>(fragmentsKey(groupId));
  return { fragments: entry.value?.fragments ?? [], versionstamp: entry.versionstamp };
}

/**
 * Replaces all of the group's fragments, with the audit entries, in one atomic write. With
 * `expectedVersionstamp` (from `getFragments`; null for "none stored yet") it happens only if
 * the fragments did not change since; without it, the last writer wins.
 */
export async function replaceFragments(
  kv: Kv,
  groupId: string,
  fragments: readonly Fragment[],
  expectedVersionstamp?: string | null,
  audits: readonly AuditEntry[] = [],
): Promise<ReplaceFragmentsResult> {
  const record: FragmentsRecord = { fragments: [...fragments], updatedAt: Date.now() };
  if (encoder.encode(JSON.stringify(record)).length > MAX_FRAGMENTS_BYTES) {
    return { ok: false, reason: "too_large", limit: MAX_FRAGMENTS_BYTES };
  }
  const op = kv.atomic();
  if (expectedVersionstamp !== undefined) {
    op.check({ key: fragmentsKey(groupId), versionstamp: expectedVersionstamp });
  }
  op.set(fragmentsKey(groupId), record);
  const internalIds = audits.length > 0 ? await currentInternalIds(kv) : new Map();
  for (const audit of audits) addAuditEntry(op, audit, internalIds);
  const result = await op.commit();
  return result.ok
    ? { ok: true, versionstamp: result.versionstamp, count: fragments.length }
    : { ok: false, reason: "conflict" };
}
