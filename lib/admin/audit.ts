/**
 * `GET /admin/api/audit`: audit entries newest first, filtered by group, action (exact, or a
 * prefix ending in `.`), actor (user id or login) and time, with cursor pages. A super admin
 * sees every entry; anyone else sees the entries of the groups they can read (each group's own
 * history, under whatever ids it had: `history.ts`).
 */
import type { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import type { AuditEntry } from "../store/audit.ts";
import { auditByGroupPrefix, auditKey, auditPrefix } from "../store/keys.ts";
import { historyScope } from "./history.ts";
import { collectPage, type Page, type Source } from "./pages.ts";
import type { auditQuerySchema } from "./schemas.ts";

/** The audit query, as validated by `auditQuerySchema`. */
export type AuditQuery = z.output<typeof auditQuerySchema>;

const READ_BATCH = 10;

function allEntries(kv: Deno.Kv): Source<AuditEntry> {
  return async function* (below) {
    const selector = below === undefined
      ? { prefix: auditPrefix() }
      : { prefix: auditPrefix(), end: auditKey(below) };
    for await (const entry of kv.list<AuditEntry>(selector, { reverse: true })) yield entry.value;
  };
}

function groupEntries(kv: Deno.Kv, internalId: string): Source<AuditEntry> {
  return async function* (below) {
    const prefix = auditByGroupPrefix(internalId);
    const selector = below === undefined ? { prefix } : { prefix, end: [...prefix, below] };
    let ids: string[] = [];
    const read = async () => {
      const entries = await kv.getMany<AuditEntry[]>(ids.map(auditKey));
      ids = [];
      return entries.flatMap((entry) => entry.value ? [entry.value] : []);
    };
    for await (const entry of kv.list<string>(selector, { reverse: true })) {
      ids.push(entry.value);
      if (ids.length === READ_BATCH) yield* await read();
    }
    if (ids.length > 0) yield* await read();
  };
}

function matcher(query: AuditQuery): (entry: AuditEntry) => boolean {
  const actor = query.actor?.toLowerCase();
  const action = query.action;
  return (entry) =>
    (action === undefined ||
      (action.endsWith(".") ? entry.action.startsWith(action) : entry.action === action)) &&
    (actor === undefined || entry.actor.userId === query.actor ||
      entry.actor.login.toLowerCase() === actor);
}

/** One page of the audit entries the caller may see. */
export async function queryAudit(
  kv: Deno.Kv,
  principal: Principal,
  query: AuditQuery,
): Promise<Page<AuditEntry>> {
  const scope = await historyScope(kv, principal, query.groupId);
  const sources: Source<AuditEntry>[] = scope === null
    ? [allEntries(kv)]
    : scope.map((internalId) => groupEntries(kv, internalId));
  return await collectPage(sources, {
    idOf: (entry) => entry.id,
    keep: matcher(query),
    limit: query.limit ?? 50,
    cursor: query.cursor,
    from: query.from,
    to: query.to,
  });
}
