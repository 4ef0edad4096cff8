/** Reading the configuration document out of the store (see `config_document.ts`). */
import type { Kv } from "../store/backend/types.ts";
import { getAllowedTargets } from "../store/config/allowed_targets.ts";
import { type AuditActor, newAuditEntry, writeAuditEntry } from "../store/telemetry/audit.ts";
import { getFragments } from "../store/config/fragments.ts";
import { listGroups } from "../store/config/groups.ts";
import { getRoutes } from "../store/config/routes.ts";
import { getGroupSecret } from "../store/config/group_secrets.ts";
import { CONFIG_VERSION, type ConfigDocument, type GroupSecretEntry } from "./config_document.ts";

/** What an export includes. */
interface ExportOptions {
  /** Include the groups' webhook secrets (in plain text). */
  secrets?: boolean;
  /** TOKEN_ENCRYPTION_KEY, to open sealed secrets. */
  encryptionKey?: string;
  now?: number;
}

/** The configuration of every group, as a version 1 document. */
export async function exportConfig(
  kv: Kv,
  options: ExportOptions = {},
): Promise<ConfigDocument> {
  const groups = await listGroups(kv);
  const ids = groups.map((group) => group.id);
  const [routes, fragments, allowed] = await Promise.all([
    getRoutes(kv),
    Promise.all(ids.map((id) => getFragments(kv, id))),
    Promise.all(ids.map((id) => getAllowedTargets(kv, id))),
  ]);
  const known = new Set(ids);
  const document: ConfigDocument = {
    version: CONFIG_VERSION,
    exportedAt: new Date(options.now ?? Date.now()).toISOString(),
    groups,
    routes: routes.routes.filter((route) => known.has(route.groupId)),
    fragments: fragments.flatMap((stored) => stored.fragments),
    allowedTargets: ids.map((groupId, index) => ({
      groupId,
      targets: allowed[index].targets.map((entry) => entry.target),
    })).filter((entry) => entry.targets.length > 0),
  };
  if (options.secrets) document.secrets = await secretsOf(kv, ids, options.encryptionKey);
  return document;
}

/**
 * {@link exportConfig} for a person: every export is audited (`config.export`, with who, when,
 * whether it holds the webhook secrets and how many groups), with secrets or without, since
 * even without them it reads every group's members, routes and targets. The entry is written
 * before the document is answered; when it cannot be, this throws and nothing is answered.
 */
export async function exportConfigAudited(
  kv: Kv,
  actor: AuditActor,
  options: ExportOptions = {},
): Promise<ConfigDocument> {
  const document = await exportConfig(kv, options);
  const detail = { secrets: options.secrets === true, groups: document.groups.length };
  const entry = newAuditEntry({ actor, action: "config.export", detail }, Date.now());
  await writeAuditEntry(kv, entry);
  return document;
}

async function secretsOf(
  kv: Kv,
  groupIds: readonly string[],
  encryptionKey: string | undefined,
): Promise<GroupSecretEntry[]> {
  const secrets: GroupSecretEntry[] = [];
  for (const groupId of groupIds) {
    const stored = await getGroupSecret(kv, groupId, encryptionKey);
    if (stored) secrets.push({ groupId, secret: stored.secret });
  }
  return secrets;
}
