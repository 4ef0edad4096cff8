/**
 * Per-group webhook secrets under `["tenant", groupId]`: 32 random bytes as
 * hex. The admin API creates, regenerates, shows (once) and deletes them;
 * `POST /webhook/:groupId` verifies against them.
 *
 * A regenerate may keep the replaced secret as `previous` for a grace period
 * (the owner's choice), so senders can be switched over without dropping
 * events; it can be revoked at once, and past `expiresAt` it verifies nothing.
 * Each secret records when it last verified a webhook: written at most once a
 * minute per secret, in the same record, checked against the version read, so
 * concurrent webhooks and instances write it once.
 *
 * With TOKEN_ENCRYPTION_KEY set, the secret is stored sealed with the token
 * cipher (AES-GCM, lib/at_rest.ts), like users' GitHub tokens. A
 * secret stored in plain text before the key was set is still read, and is
 * sealed in place the first time it is read with the key.
 */
import type { AtomicOperation, Kv, KvEntry } from "../backend/types.ts";
import { openToken, sealToken } from "../../at_rest.ts";
import { randomHex } from "../../crypto.ts";
import { addAuditEntry, type AuditEntry, currentInternalIds } from "../telemetry/audit.ts";
import { tenantKey } from "../keys.ts";

/** A group's ingress secret, in plain text. */
export interface GroupSecret {
  secret: string;
  /** Unix milliseconds. */
  createdAt: number;
}

/** A replaced secret kept working until `expiresAt` (stored form: sealed like the secret). */
interface StoredPreviousSecret {
  secret: string;
  createdAt: number;
  lastUsedAt?: number;
  /** Unix milliseconds; from then on it verifies nothing. */
  expiresAt: number;
}

/** The KV value: the secret sealed when a key is configured. */
interface StoredGroupSecret {
  secret: string;
  createdAt: number;
  /** When it last verified a webhook (to the minute). */
  lastUsedAt?: number;
  previous?: StoredPreviousSecret;
}

/** One active secret in plain text, with when it was made and last used. */
interface ActiveSecret extends GroupSecret {
  lastUsedAt?: number;
}

/** Which of a group's secrets: the current one or the previous one in its grace period. */
export type SecretSlot = "current" | "previous";

/** A group's active secrets as read, and the record they came from (for {@link noteSecretUsed}). */
interface GroupSecrets {
  current: ActiveSecret;
  previous?: ActiveSecret & { expiresAt: number };
  entry: KvEntry<StoredGroupSecret>;
}

const SECRET_BYTES = 32;
/** Last-used times are written at most this often per secret. */
const LAST_USED_PRECISION_MS = 60_000;
/** The longest grace period a replaced secret may get. */
export const MAX_SECRET_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** The stored record of a secret: sealed under `encryptionKey` when one is given. */
export async function storedSecretRecord(
  secret: string,
  createdAt: number,
  encryptionKey: string | undefined,
): Promise<StoredGroupSecret> {
  return { secret: await sealToken(secret, encryptionKey), createdAt };
}

/**
 * The stored record, with a plain-text current secret sealed in place when a key is given;
 * null when there is none or it cannot be opened with the key.
 */
async function readRecord(
  kv: Kv,
  groupId: string,
  encryptionKey: string | undefined,
): Promise<{ entry: KvEntry<StoredGroupSecret>; secret: string } | null> {
  const entry = await kv.get<StoredGroupSecret>(tenantKey(groupId));
  if (entry.value === null) return null;
  const secret = await openToken(entry.value.secret, encryptionKey);
  if (secret === null) return null;
  if (!encryptionKey || secret !== entry.value.secret) return { entry, secret };
  const sealed = { ...entry.value, secret: await sealToken(secret, encryptionKey) };
  const write = await kv.atomic().check(entry).set(tenantKey(groupId), sealed).commit();
  if (!write.ok) return { entry, secret };
  return { entry: { ...entry, value: sealed, versionstamp: write.versionstamp }, secret };
}

/**
 * The group's secret, or null when it has none or its sealed secret cannot be
 * opened with `encryptionKey` (TOKEN_ENCRYPTION_KEY). A plain-text secret read
 * with a key is sealed in place.
 */
export async function getGroupSecret(
  kv: Kv,
  groupId: string,
  encryptionKey?: string,
): Promise<GroupSecret | null> {
  const read = await readRecord(kv, groupId, encryptionKey);
  return read && { secret: read.secret, createdAt: read.entry.value.createdAt };
}

/**
 * The group's active secrets at `now`: the current one, and the previous one while its grace
 * period lasts (one that cannot be opened is left out). Null when the group has no secret.
 */
export async function readGroupSecrets(
  kv: Kv,
  groupId: string,
  encryptionKey: string | undefined,
  now: number,
): Promise<GroupSecrets | null> {
  const read = await readRecord(kv, groupId, encryptionKey);
  if (!read) return null;
  const { entry } = read;
  const { createdAt, lastUsedAt, previous } = entry.value;
  const current: ActiveSecret = { secret: read.secret, createdAt, ...usedAt(lastUsedAt) };
  if (!previous || previous.expiresAt <= now) return { current, entry };
  const previousSecret = await openToken(previous.secret, encryptionKey);
  if (previousSecret === null) return { current, entry };
  return {
    current,
    previous: {
      secret: previousSecret,
      createdAt: previous.createdAt,
      expiresAt: previous.expiresAt,
      ...usedAt(previous.lastUsedAt),
    },
    entry,
  };
}

function usedAt(lastUsedAt: number | undefined): { lastUsedAt?: number } {
  return lastUsedAt === undefined ? {} : { lastUsedAt };
}

/**
 * Records that the secret in `slot` verified a webhook at `now`, unless it was recorded less
 * than a minute before. Written only over the record as read: when it changed meanwhile (a
 * regenerate, another webhook's note) nothing is written.
 */
export async function noteSecretUsed(
  kv: Kv,
  read: GroupSecrets,
  slot: SecretSlot,
  now: number,
): Promise<void> {
  const stored = read.entry.value;
  const record = slot === "current" ? stored : stored.previous;
  if (!record) return;
  if (record.lastUsedAt !== undefined && now - record.lastUsedAt < LAST_USED_PRECISION_MS) return;
  const updated: StoredGroupSecret = slot === "current"
    ? { ...stored, lastUsedAt: now }
    : { ...stored, previous: { ...record as StoredPreviousSecret, lastUsedAt: now } };
  await kv.atomic().check(read.entry).set(read.entry.key, updated).commit();
}

/** Adds `audit`, if given, to `op` and commits; whether it went through. */
async function tryCommitWithAudit(
  kv: Kv,
  op: AtomicOperation,
  audit: AuditEntry | undefined,
): Promise<boolean> {
  if (audit) addAuditEntry(op, audit, await currentInternalIds(kv));
  return (await op.commit()).ok;
}

const WRITE_ATTEMPTS = 5;

/**
 * Rewrites the group's record from the one read with `change` (undefined: nothing to do),
 * checked against that read and retried when another write (a last-used note) came between.
 * Whether `change` wrote.
 */
async function changeRecord(
  kv: Kv,
  groupId: string,
  audit: AuditEntry | undefined,
  change: (stored: StoredGroupSecret | null) => StoredGroupSecret | undefined,
): Promise<boolean> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const existing = await kv.get<StoredGroupSecret>(tenantKey(groupId));
    const next = change(existing.value);
    if (next === undefined) return false;
    const op = kv.atomic().check(existing).set(tenantKey(groupId), next);
    if (await tryCommitWithAudit(kv, op, audit)) return true;
  }
  throw new Error(`Cannot change the secret of group ${groupId}`);
}

/**
 * Replaces the group's secret (or creates one) and returns the new secret,
 * sealed under `encryptionKey` when one is given. With `graceMs` over 0 the
 * replaced secret keeps verifying until `now + graceMs` (at most 7 days); an
 * older previous secret is dropped. `audit`, if given, is committed in the
 * same atomic write.
 */
export async function regenerateGroupSecret(
  kv: Kv,
  groupId: string,
  now: number = Date.now(),
  encryptionKey?: string,
  audit?: AuditEntry,
  graceMs = 0,
): Promise<string> {
  if (!Number.isSafeInteger(graceMs) || graceMs < 0 || graceMs > MAX_SECRET_GRACE_MS) {
    throw new RangeError(`graceMs must be 0..${MAX_SECRET_GRACE_MS}`);
  }
  const secret = randomHex(SECRET_BYTES);
  const record = await storedSecretRecord(secret, now, encryptionKey);
  await changeRecord(kv, groupId, audit, (replaced) => {
    if (!replaced || graceMs === 0) return record;
    const previous: StoredPreviousSecret = {
      secret: replaced.secret,
      createdAt: replaced.createdAt,
      ...usedAt(replaced.lastUsedAt),
      expiresAt: now + graceMs,
    };
    return { ...record, previous };
  });
  return secret;
}

/**
 * Ends the previous secret's grace period at once. False when there is none left to revoke
 * (none kept, or already expired at `now`); `audit`, if given, is committed in the same write.
 */
export async function revokePreviousSecret(
  kv: Kv,
  groupId: string,
  now: number,
  audit?: AuditEntry,
): Promise<boolean> {
  return await changeRecord(kv, groupId, audit, (stored) => {
    if (!stored?.previous || stored.previous.expiresAt <= now) return undefined;
    const { previous: _revoked, ...kept } = stored;
    return kept;
  });
}

/**
 * Removes the group's secret, which switches its ingress off; `audit`, if given, is committed
 * in the same atomic write, checked against the secret read. False (and nothing written, no
 * audit entry) when the group had no secret.
 */
export async function deleteGroupSecret(
  kv: Kv,
  groupId: string,
  audit?: AuditEntry,
): Promise<boolean> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const existing = await kv.get<StoredGroupSecret>(tenantKey(groupId));
    if (existing.value === null) return false;
    const op = kv.atomic().check(existing).delete(tenantKey(groupId));
    if (await tryCommitWithAudit(kv, op, audit)) return true;
  }
  throw new Error(`Cannot change the secret of group ${groupId}`);
}

const GET_MANY_LIMIT = 10;

/** Which of the groups have a webhook secret (their ingress is on), in a few batched reads. */
export async function groupsWithSecret(
  kv: Kv,
  groupIds: readonly string[],
): Promise<Set<string>> {
  const batches: string[][] = [];
  for (let start = 0; start < groupIds.length; start += GET_MANY_LIMIT) {
    batches.push(groupIds.slice(start, start + GET_MANY_LIMIT));
  }
  const read = await Promise.all(
    batches.map((batch) => kv.getMany(batch.map((groupId) => tenantKey(groupId)))),
  );
  return new Set(
    read.flat().flatMap((entry) => entry.value === null ? [] : [String(entry.key[1])]),
  );
}
