/**
 * `GET /admin/api/audit`: audit entries newest first, filtered by group, action (exact, or a
 * prefix ending in `.`), actor (user id or login) and time, with cursor pages. A super admin
 * sees every entry; anyone else sees the entries of the groups they can read (each group's own
 * history, under whatever ids it had: `history.ts`).
 */
import type { Kv } from "../store/backend/types.ts";
import type { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import { type AuditEntry, auditNewestFirst } from "../store/telemetry/audit.ts";
import { historyScope } from "./history.ts";
import { collectPage, type Page, pageWindow, requireCursor, type Source } from "./pages.ts";
import { isId } from "../ids.ts";
import type { auditQuerySchema } from "./schemas.ts";

/** The audit query, as validated by `auditQuerySchema`. */
type AuditQuery = z.output<typeof auditQuerySchema>;

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
  kv: Kv,
  principal: Principal,
  query: AuditQuery,
): Promise<Page<AuditEntry>> {
  requireCursor(query.cursor, (id) => isId("auditEntry", id));
  const scope = await historyScope(kv, principal, query.groupId);
  const sources: Source<AuditEntry>[] = (scope ?? [undefined]).map((internalId) => (below) =>
    auditNewestFirst(kv, { internalId, below })
  );
  return await collectPage(sources, {
    idOf: (entry) => entry.id,
    keep: matcher(query),
    ...pageWindow(query),
  });
}
