/**
 * Per-group webhook secrets under `["tenant", groupId]`: 32 random bytes as
 * hex. The admin API creates, regenerates, shows (once) and deletes them;
 * `POST /webhook/:groupId` verifies against them.
 */
import { randomHex } from "../crypto.ts";
import { tenantKey } from "./keys.ts";

/** A group's ingress secret. */
export interface GroupSecret {
  secret: string;
  /** Unix milliseconds. */
  createdAt: number;
}

const SECRET_BYTES = 32;

/** The group's secret, or null when it has none. */
export async function getGroupSecret(kv: Deno.Kv, groupId: string): Promise<GroupSecret | null> {
  return (await kv.get<GroupSecret>(tenantKey(groupId))).value;
}

/**
 * Creates the group's secret when it has none and returns it; returns null
 * (and changes nothing) when one exists already.
 */
export async function createGroupSecret(
  kv: Deno.Kv,
  groupId: string,
  now: number = Date.now(),
): Promise<string | null> {
  const record: GroupSecret = { secret: randomHex(SECRET_BYTES), createdAt: now };
  const result = await kv.atomic()
    .check({ key: tenantKey(groupId), versionstamp: null })
    .set(tenantKey(groupId), record)
    .commit();
  return result.ok ? record.secret : null;
}

/** Replaces the group's secret (or creates one) and returns the new secret. */
export async function regenerateGroupSecret(
  kv: Deno.Kv,
  groupId: string,
  now: number = Date.now(),
): Promise<string> {
  const record: GroupSecret = { secret: randomHex(SECRET_BYTES), createdAt: now };
  await kv.set(tenantKey(groupId), record);
  return record.secret;
}

/** Removes the group's secret, which switches its ingress off. */
export async function deleteGroupSecret(kv: Deno.Kv, groupId: string): Promise<void> {
  await kv.delete(tenantKey(groupId));
}
