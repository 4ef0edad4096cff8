/**
 * Writing one group's configuration (record, routes, fragments, allowed targets, and its
 * webhook secret when given) as one atomic operation, for the configuration import. The
 * group's routes are written aside as a new route set (`routes.ts`); the switch to that set
 * carries everything else of the group and its audit entry, checked against the group set,
 * the route set and the group's allowlist as they were read, so readers see the group before
 * the import or after it, never a mix. A group created this way starts clean: a secret or
 * invites left under its id by an earlier group of that id are removed in the same write.
 */
import type { Kv } from "../backend/types.ts";
import type { TargetRef } from "../../target_ref.ts";
import { targetRefKey } from "../../target_ref.ts";
import type { Fragment, Group, Route } from "../../types.ts";
import { addAllowlistWrite, readAllowlist } from "./allowed_target_pages.ts";
import type { AllowedTarget } from "./allowed_targets.ts";
import { addAuditEntry, type AuditActor, newAuditEntry } from "../telemetry/audit.ts";
import type { FragmentsRecord } from "./fragments.ts";
import { groupSetWriter, newInternalId, readGroupSet } from "./group_set.ts";
import { addInviteDelete, listInviteEntries } from "./invites.ts";
import { allowedTargetsEpochKey, allowedTargetsKey, fragmentsKey, tenantKey } from "../keys.ts";
import { getRoutes, replaceGroupRoutes } from "./routes.ts";
import { storedSecretRecord } from "./group_secrets.ts";

/** Everything of one group an import writes. */
interface GroupImport {
  group: Group;
  routes: Route[];
  fragments: Fragment[];
  allowedTargets: TargetRef[];
  /** The webhook secret in plain text; absent: a stored one is kept (none for a new group). */
  secret?: string;
}

/** Outcome of one group's import. */
type GroupImportResult =
  | { ok: true; created: boolean }
  | { ok: false; reason: "conflict" | "too_many" | "too_large" };

/** Who imports, when, and the key group secrets are sealed under. */
interface ImportContext {
  actor: AuditActor;
  now: number;
  encryptionKey?: string;
}

const ATTEMPTS = 5;

function allowlist(
  wanted: readonly TargetRef[],
  before: readonly AllowedTarget[],
  context: ImportContext,
): { targets: AllowedTarget[]; added: boolean } {
  const kept = new Map(before.map((entry) => [targetRefKey(entry.target), entry]));
  const targets = wanted.map((target) =>
    kept.get(targetRefKey(target)) ??
      { target, allowedAt: context.now, allowedBy: context.actor, via: "admin" as const }
  );
  return {
    targets,
    added: wanted.some((target) => !kept.has(targetRefKey(target))),
  };
}

async function importOnce(
  kv: Kv,
  input: GroupImport,
  context: ImportContext,
): Promise<GroupImportResult> {
  const groupId = input.group.id;
  const set = await readGroupSet(kv);
  const existing = set.entries.find((entry) => entry.group.id === groupId);
  const routes = await getRoutes(kv);
  const allowed = await readAllowlist(kv, groupId);
  const leftoverInvites = existing ? [] : await listInviteEntries(kv, groupId, context.now);
  const secret = input.secret === undefined
    ? undefined
    : await storedSecretRecord(input.secret, context.now, context.encryptionKey);
  const internalId = existing?.internalId ?? newInternalId();
  const { targets, added } = allowlist(input.allowedTargets, allowed.targets, context);
  const fragments: FragmentsRecord = { fragments: input.fragments, updatedAt: context.now };

  const result = await replaceGroupRoutes(kv, groupId, input.routes, routes.versionstamp, {
    alongside: (op) => {
      groupSetWriter(op, set).put({ group: input.group, internalId });
      op.check({ key: allowedTargetsKey(groupId), versionstamp: allowed.versionstamp })
        .set(fragmentsKey(groupId), fragments);
      addAllowlistWrite(op, groupId, targets, context.now);
      if (added) op.sum(allowedTargetsEpochKey(), 1n);
      if (secret) op.set(tenantKey(groupId), secret);
      else if (!existing) op.delete(tenantKey(groupId));
      for (const { invite } of leftoverInvites) addInviteDelete(op, invite);
      const audit = newAuditEntry({
        actor: context.actor,
        action: "config.import",
        groupId,
        detail: {
          created: !existing,
          routes: input.routes.length,
          fragments: input.fragments.length,
          allowedTargets: input.allowedTargets.length,
          secret: input.secret !== undefined,
        },
      }, context.now);
      addAuditEntry(op, audit, new Map([[groupId, internalId]]));
    },
  });
  if (result.ok) return { ok: true, created: !existing };
  return { ok: false, reason: result.reason };
}

/**
 * Writes one group's configuration in one atomic operation (see the module comment), retried
 * while other writes get in the way; `conflict` when they kept doing so.
 */
export async function importGroup(
  kv: Kv,
  input: GroupImport,
  context: ImportContext,
): Promise<GroupImportResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const result = await importOnce(kv, input, context);
    if (result.ok || result.reason !== "conflict") return result;
  }
  return { ok: false, reason: "conflict" };
}
