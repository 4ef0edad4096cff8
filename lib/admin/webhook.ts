/**
 * A group's own ingress `POST /webhook/:groupId` (owner): its address and state, a new secret
 * (shown once, never recorded in the audit log), and switching it off.
 */
import type { Principal } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import { newAuditEntry } from "../store/audit.ts";
import { deleteGroupSecret, getGroupSecret, regenerateGroupSecret } from "../store/tenants.ts";
import { actorOf, requireGroup } from "./guards.ts";

/** The group's ingress address. */
export function ingressUrl(config: Config, groupId: string): string {
  return `${config.baseUrl}/webhook/${groupId}`;
}

/** `GET /admin/api/groups/:id/webhook`: address, whether it is on, since when. */
export async function describeWebhook(
  kv: Deno.Kv,
  config: Config,
  principal: Principal,
  groupId: string,
) {
  await requireGroup(kv, principal, groupId, "own");
  const secret = await getGroupSecret(kv, groupId, config.tokenEncryptionKey);
  return {
    url: ingressUrl(config, groupId),
    enabled: secret !== null,
    ...(secret ? { createdAt: secret.createdAt } : {}),
  };
}

/** `POST /admin/api/groups/:id/webhook/regenerate`: a new secret; the old one stops working. */
export async function regenerateWebhook(
  kv: Deno.Kv,
  config: Config,
  principal: Principal,
  groupId: string,
) {
  await requireGroup(kv, principal, groupId, "own");
  const now = Date.now();
  const audit = newAuditEntry(
    { actor: actorOf(principal), action: "webhook.regenerate", groupId },
    now,
  );
  const secret = await regenerateGroupSecret(kv, groupId, now, config.tokenEncryptionKey, audit);
  return { secret, url: ingressUrl(config, groupId) };
}

/** `DELETE /admin/api/groups/:id/webhook`: removes the secret, so the ingress answers 404. */
export async function disableWebhook(
  kv: Deno.Kv,
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
