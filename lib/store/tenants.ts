/**
 * Per-group webhook secrets under `["tenant", groupId]`: 32 random bytes as
 * hex. The admin API creates, regenerates, shows (once) and deletes them;
 * `POST /webhook/:groupId` verifies against them.
 *
 * With TOKEN_ENCRYPTION_KEY set, the secret is stored sealed with the token
 * cipher (AES-GCM, lib/at_rest.ts), like users' GitHub tokens. A
 * secret stored in plain text before the key was set is still read, and is
 * sealed in place the first time it is read with the key.
 */
import { openToken, sealToken } from "../at_rest.ts";
import { randomHex } from "../crypto.ts";
import { addAuditEntry, type AuditEntry, currentInternalIds } from "./audit.ts";
import { tenantKey } from "./keys.ts";

/** A group's ingress secret, in plain text. */
export interface GroupSecret {
  secret: string;
  /** Unix milliseconds. */
  createdAt: number;
}

/** The KV value: the secret sealed when a key is configured. */
export interface StoredGroupSecret {
  secret: string;
  createdAt: number;
}

const SECRET_BYTES = 32;

/** The stored record of a secret: sealed under `encryptionKey` when one is given. */
export async function storedSecretRecord(
  secret: string,
  createdAt: number,
  encryptionKey: string | undefined,
): Promise<StoredGroupSecret> {
  return { secret: await sealToken(secret, encryptionKey), createdAt };
}

/**
 * The group's secret, or null when it has none or its sealed secret cannot be
 * opened with `encryptionKey` (TOKEN_ENCRYPTION_KEY). A plain-text secret read
 * with a key is sealed in place.
 */
export async function getGroupSecret(
  kv: Deno.Kv,
  groupId: string,
  encryptionKey?: string,
): Promise<GroupSecret | null> {
  const entry = await kv.get<StoredGroupSecret>(tenantKey(groupId));
  if (!entry.value) return null;
  const secret = await openToken(entry.value.secret, encryptionKey);
  if (secret === null) return null;
  if (encryptionKey && secret === entry.value.secret) {
    const sealed = await storedSecretRecord(secret, entry.value.createdAt, encryptionKey);
    await kv.atomic().check(entry).set(tenantKey(groupId), sealed).commit();
  }
  return { secret, createdAt: entry.value.createdAt };
}

/** Adds `audit`, if given, to `op` and commits; throws when the write does not go through. */
async function commitWithAudit(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  audit: AuditEntry | undefined,
  groupId: string,
): Promise<void> {
  if (audit) addAuditEntry(op, audit, await currentInternalIds(kv));
  if (!(await op.commit()).ok) throw new Error(`Cannot change the secret of group ${groupId}`);
}

/**
 * Replaces the group's secret (or creates one) and returns the new secret,
 * sealed under `encryptionKey` when one is given. `audit`, if given, is
 * committed in the same atomic write.
 */
export async function regenerateGroupSecret(
  kv: Deno.Kv,
  groupId: string,
  now: number = Date.now(),
  encryptionKey?: string,
  audit?: AuditEntry,
): Promise<string> {
  const secret = randomHex(SECRET_BYTES);
  const op = kv.atomic().set(
    tenantKey(groupId),
    await storedSecretRecord(secret, now, encryptionKey),
  );
  await commitWithAudit(kv, op, audit, groupId);
  return secret;
}

/**
 * Removes the group's secret, which switches its ingress off; `audit`, if
 * given, is committed in the same atomic write.
 */
export async function deleteGroupSecret(
  kv: Deno.Kv,
  groupId: string,
  audit?: AuditEntry,
): Promise<void> {
  await commitWithAudit(kv, kv.atomic().delete(tenantKey(groupId)), audit, groupId);
}

const GET_MANY_LIMIT = 10;

/** Which of the groups have a webhook secret (their ingress is on), in a few batched reads. */
export async function groupsWithSecret(
  kv: Deno.Kv,
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
