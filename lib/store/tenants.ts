/**
 * Per-group webhook secrets under `["tenant", groupId]`: 32 random bytes as
 * hex. The admin API creates, regenerates, shows (once) and deletes them;
 * `POST /webhook/:groupId` verifies against them.
 *
 * With TOKEN_ENCRYPTION_KEY set, the secret is stored sealed with the token
 * cipher (AES-GCM, lib/auth/token_cipher.ts), like users' GitHub tokens. A
 * secret stored in plain text before the key was set is still read, and is
 * sealed in place the first time it is read with the key.
 */
import { openToken, sealToken } from "../auth/token_cipher.ts";
import { randomHex } from "../crypto.ts";
import { tenantKey } from "./keys.ts";

/** A group's ingress secret, in plain text. */
export interface GroupSecret {
  secret: string;
  /** Unix milliseconds. */
  createdAt: number;
}

/** The KV value: the secret sealed when a key is configured. */
interface StoredGroupSecret {
  secret: string;
  createdAt: number;
}

const SECRET_BYTES = 32;

async function storedRecord(
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
    const sealed = await storedRecord(secret, entry.value.createdAt, encryptionKey);
    await kv.atomic().check(entry).set(tenantKey(groupId), sealed).commit();
  }
  return { secret, createdAt: entry.value.createdAt };
}

/**
 * Creates the group's secret when it has none and returns it; returns null
 * (and changes nothing) when one exists already. The secret is sealed under
 * `encryptionKey` when one is given.
 */
export async function createGroupSecret(
  kv: Deno.Kv,
  groupId: string,
  now: number = Date.now(),
  encryptionKey?: string,
): Promise<string | null> {
  const secret = randomHex(SECRET_BYTES);
  const result = await kv.atomic()
    .check({ key: tenantKey(groupId), versionstamp: null })
    .set(tenantKey(groupId), await storedRecord(secret, now, encryptionKey))
    .commit();
  return result.ok ? secret : null;
}

/**
 * Replaces the group's secret (or creates one) and returns the new secret,
 * sealed under `encryptionKey` when one is given.
 */
export async function regenerateGroupSecret(
  kv: Deno.Kv,
  groupId: string,
  now: number = Date.now(),
  encryptionKey?: string,
): Promise<string> {
  const secret = randomHex(SECRET_BYTES);
  await kv.set(tenantKey(groupId), await storedRecord(secret, now, encryptionKey));
  return secret;
}

/** Removes the group's secret, which switches its ingress off. */
export async function deleteGroupSecret(kv: Deno.Kv, groupId: string): Promise<void> {
  await kv.delete(tenantKey(groupId));
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
