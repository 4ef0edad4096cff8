/**
 * The audit log: one entry per admin write, sign-in, sign-out, invite use,
 * token revocation, install binding, chat account link or unlink, and configuration export.
 * Every entry is committed in the same atomic write as the change it records (the store
 * function making the change takes the entry), so the log never shows a change that did not
 * happen nor misses one that did; an export changes nothing, so its entry is committed before
 * the document is answered. Entries are keyed by ulid, so listing the prefix gives
 * them in time order; entries about a group are also indexed under that
 * group's internal id (`group_set.ts`), so they follow the group through
 * renames and never pass to a later group with the same id.
 */
import type { AtomicOperation, Kv } from "../backend/types.ts";
import { monotonicUlids } from "../../ulid.ts";
import { internalIdsOf, readGroupSet } from "../config/group_set.ts";
import { listValues, readIndexed, valuesOf } from "../batch.ts";
import {
  auditByGroupKey,
  auditByGroupPrefix,
  auditKey,
  auditPrefix,
  selectBelow,
} from "../keys.ts";

/** Every action an audit entry can record; docs/admin_api.md lists the same set. */
export const AUDIT_ACTIONS = [
  "routes.replace",
  "fragments.replace",
  "group.create",
  "group.update",
  "group.delete",
  "group.rename",
  "invite.create",
  "invite.revoke",
  "invite.accept",
  "webhook.regenerate",
  "webhook.revoke",
  "webhook.delete",
  "delivery.redeliver",
  "targets.replace",
  "targets.allow",
  "targets.claim",
  "session.login",
  "session.logout",
  "token.revoke",
  "preferences.update",
  "link.create",
  "link.delete",
  "installation.provision",
  "installation.bind",
  "installation.unbind",
  "config.import",
  "config.export",
  "webhook.test",
  "event.resend",
  "target.pause",
  "target.resume",
  "target.discard",
  "replay.start",
  "replay.pause",
  "replay.resume",
  "replay.cancel",
  "reminder.create",
  "reminder.delete",
] as const;

/** What an audit entry records: a dotted verb, one of {@link AUDIT_ACTIONS}. */
export type AuditAction = typeof AUDIT_ACTIONS[number];

/** Who did it. */
export interface AuditActor {
  userId: string;
  login: string;
}

/** One audit entry. */
export interface AuditEntry {
  id: string;
  /** Unix milliseconds. */
  at: number;
  actor: AuditActor;
  action: AuditAction;
  groupId?: string;
  target?: string;
  detail?: Record<string, unknown>;
}

/** An entry before it gets its id and time. */
export type AuditInput = Omit<AuditEntry, "id" | "at">;

const nextAuditId = monotonicUlids();

/** A complete entry for `input` at `at` (Unix milliseconds), with a fresh ulid. */
export function newAuditEntry(input: AuditInput, at: number): AuditEntry {
  return { ...input, id: nextAuditId(at), at };
}

/**
 * Adds the writes of `entry` to an atomic operation: the record, and the index
 * entry under its group's internal id, looked up in `internalIds` (group id →
 * internal id; an entry about a group that is not there is not indexed, and an
 * entry about no group needs no map).
 */
export function addAuditEntry(
  op: AtomicOperation,
  entry: AuditEntry,
  internalIds: ReadonlyMap<string, string> = new Map(),
): AtomicOperation {
  op.set(auditKey(entry.id), entry);
  const internalId = entry.groupId === undefined ? undefined : internalIds.get(entry.groupId);
  if (internalId !== undefined) op.set(auditByGroupKey(internalId, entry.id), entry.id);
  return op;
}

/**
 * Commits `entry` on its own, for an action that changes nothing stored (a configuration
 * export); throws when the write does not go through, so the caller answers an error instead.
 */
export async function writeAuditEntry(kv: Kv, entry: AuditEntry): Promise<void> {
  const op = addAuditEntry(kv.atomic(), entry, await currentInternalIds(kv));
  if (!(await op.commit()).ok) throw new Error(`Cannot write the audit entry ${entry.action}`);
}

/** Group id → internal id of every current group, for {@link addAuditEntry}. */
export async function currentInternalIds(kv: Kv): Promise<Map<string, string>> {
  return internalIdsOf(await readGroupSet(kv));
}

/** Which audit entries {@link auditNewestFirst} reads. */
interface AuditRange {
  /** Only the entries indexed under this group's internal id (default: every entry). */
  internalId?: string;
  /** Only the entries whose id is below this one. */
  below?: string;
  /** At most this many entries (of the index, when reading a group's). */
  limit?: number;
}

/** Audit entries newest first: all of them, or those of one group's history. */
export function auditNewestFirst(kv: Kv, range: AuditRange = {}): AsyncIterable<AuditEntry> {
  const options = { reverse: true, limit: range.limit };
  if (range.internalId === undefined) {
    return listValues<AuditEntry>(kv, selectBelow(auditPrefix(), range.below), options);
  }
  const index = selectBelow(auditByGroupPrefix(range.internalId), range.below);
  return valuesOf(readIndexed<AuditEntry>(kv, index, auditKey, options));
}

/** Audit entries, newest first: all of them, or those of the group that now has `groupId`. */
export async function listAuditEntries(
  kv: Kv,
  options: { groupId?: string; limit?: number } = {},
): Promise<AuditEntry[]> {
  const limit = options.limit ?? 100;
  if (options.groupId === undefined) return await Array.fromAsync(auditNewestFirst(kv, { limit }));
  const internalId = (await currentInternalIds(kv)).get(options.groupId);
  if (internalId === undefined) return [];
  return await Array.fromAsync(auditNewestFirst(kv, { internalId, limit }));
}
