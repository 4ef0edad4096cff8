/**
 * A group's own ingress `POST /webhook/:groupId` (owner): its address and state, a new secret
 * (shown once, never recorded in the audit log) with a grace period for the one it replaces,
 * revoking that one early, and switching the ingress off.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import { HttpError } from "../fresh/mod.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import {
  deleteGroupSecret,
  readGroupSecrets,
  regenerateGroupSecret,
  revokePreviousSecret,
} from "../store/config/group_secrets.ts";
import { actorOf, requireGroup } from "./guards.ts";

/** How long a replaced secret keeps working when the owner does not say: 24 hours. */
const DEFAULT_GRACE_SECONDS = 24 * 60 * 60;

/** What the console and the API show of a group's ingress (never the secrets). */
export interface WebhookInfo {
  url: string;
  enabled: boolean;
  /** When the current secret was made. */
  createdAt?: number;
  /** When the current secret last verified a webhook (to the minute). */
  lastUsedAt?: number;
  /** The replaced secret while its grace period lasts. */
  previous?: { createdAt: number; expiresAt: number; lastUsedAt?: number };
}

/** The group's ingress address. */
export function ingressUrl(config: Config, groupId: string): string {
  return `${config.baseUrl}/webhook/${groupId}`;
}

/**
 * `GET /admin/api/groups/:id/webhook`: address, whether it is on, since when and when its
 * secret was last used; the replaced secret (never the secrets themselves) while it still works.
 */
export async function describeWebhook(
  kv: Kv,
  config: Config,
  principal: Principal,
  groupId: string,
): Promise<WebhookInfo> {
  await requireGroup(kv, principal, groupId, "own");
  const read = await readGroupSecrets(kv, groupId, config.tokenEncryptionKey, Date.now());
  if (!read) return { url: ingressUrl(config, groupId), enabled: false };
  const { current, previous } = read;
  return {
    url: ingressUrl(config, groupId),
    enabled: true,
    createdAt: current.createdAt,
    ...(current.lastUsedAt === undefined ? {} : { lastUsedAt: current.lastUsedAt }),
    ...(previous
      ? {
        previous: {
          createdAt: previous.createdAt,
          expiresAt: previous.expiresAt,
          ...(previous.lastUsedAt === undefined ? {} : { lastUsedAt: previous.lastUsedAt }),
        },
      }
      : {}),
  };
}

/**
 * `POST /admin/api/groups/:id/webhook/regenerate`: a new secret; the old one keeps working for
 * `graceSeconds` (default 24 hours; 0 ends it at once).
 */
export async function regenerateWebhook(
  kv: Kv,
  config: Config,
  principal: Principal,
  groupId: string,
  options: { graceSeconds?: number } = {},
) {
  await requireGroup(kv, principal, groupId, "own");
  const now = Date.now();
  const graceSeconds = options.graceSeconds ?? DEFAULT_GRACE_SECONDS;
  const audit = newAuditEntry(
    { actor: actorOf(principal), action: "webhook.regenerate", groupId, detail: { graceSeconds } },
    now,
  );
  const secret = await regenerateGroupSecret(
    kv,
    groupId,
    now,
    config.tokenEncryptionKey,
    audit,
    graceSeconds * 1000,
  );
  const read = await readGroupSecrets(kv, groupId, config.tokenEncryptionKey, now);
  const previousExpiresAt = read?.current.secret === secret ? read.previous?.expiresAt : undefined;
  return {
    secret,
    url: ingressUrl(config, groupId),
    ...(previousExpiresAt === undefined ? {} : { previousExpiresAt }),
  };
}

/** `DELETE /admin/api/groups/:id/webhook/previous`: the replaced secret stops working now. */
export async function revokePreviousWebhookSecret(
  kv: Kv,
  principal: Principal,
  groupId: string,
): Promise<{ ok: true }> {
  await requireGroup(kv, principal, groupId, "own");
  const now = Date.now();
  const audit = newAuditEntry(
    { actor: actorOf(principal), action: "webhook.revoke", groupId },
    now,
  );
  if (!(await revokePreviousSecret(kv, groupId, now, audit))) {
    throw new HttpError(404, `Group ${groupId} has no replaced secret in its grace period`);
  }
  return { ok: true };
}

/**
 * `DELETE /admin/api/groups/:id/webhook`: removes the secret, so the ingress answers 404.
 * Idempotent: a group without a secret answers the same, and no audit entry is written then.
 */
export async function disableWebhook(
  kv: Kv,
  principal: Principal,
  groupId: string,
): Promise<{ ok: true }> {
  await requireGroup(kv, principal, groupId, "own");
  const audit = newAuditEntry(
    { actor: actorOf(principal), action: "webhook.delete", groupId },
    Date.now(),
  );
  await deleteGroupSecret(kv, groupId, audit);
  return { ok: true };
}
