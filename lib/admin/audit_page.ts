/**
 * The console's audit page: its GET form's fields turned into an audit query, and one page of
 * entries through the same function as `GET /admin/api/audit`. Day fields are UTC days: `from`
 * starts at the day's first millisecond, `to` ends at its last.
 */
import type { Kv } from "../store/backend/types.ts";
import { type Principal, readableGroups } from "../auth/principal.ts";
import type { AuditEntry } from "../store/telemetry/audit.ts";
import { listGroups } from "../store/config/groups.ts";
import { queryAudit } from "./audit.ts";
import { endOfDay, loadPageOrRefusal, readFilters } from "./filter_page.ts";
import { auditQuerySchema } from "./schemas.ts";

/** The page's filter fields, as the form names them. */
const AUDIT_FILTER_FIELDS = ["actor", "action", "group", "from", "to"] as const;

/** The filters as typed in the form (empty fields left out). */
export type AuditFilters = Partial<Record<typeof AUDIT_FILTER_FIELDS[number], string>>;

/** Audit entries shown per page. */
const AUDIT_PER_PAGE = 50;

/**
 * Actions offered in the action filter: families (a prefix ending in `.`) and single actions.
 * Any other text is sent as it is.
 */
export const AUDIT_ACTION_CHOICES = [
  "group.",
  "group.create",
  "group.update",
  "group.rename",
  "group.delete",
  "routes.replace",
  "fragments.replace",
  "invite.",
  "webhook.",
  "targets.",
  "delivery.redeliver",
  "replay.",
  "installation.",
  "session.",
  "token.revoke",
  "preferences.update",
] as const;

/** What the page renders. */
export interface AuditPageData {
  filters: AuditFilters;
  /** Why the filters could not be applied (the page then shows no entries). */
  error?: string;
  /** The page's HTTP status: 200, or the 4xx of the refusal in `error`. */
  status: number;
  items: AuditEntry[];
  next?: string;
  paged: boolean;
  groups: { id: string; name: string }[];
}

/** The audit page for the caller: one page of entries, or why there is none. */
export async function loadAuditPage(
  kv: Kv,
  principal: Principal,
  params: URLSearchParams,
): Promise<AuditPageData> {
  const filters: AuditFilters = readFilters(params, AUDIT_FILTER_FIELDS);
  const cursor = params.get("cursor");
  const groups = readableGroups(principal, await listGroups(kv));
  const data: AuditPageData = {
    filters,
    items: [],
    paged: Boolean(cursor),
    status: 200,
    groups: groups.map(({ id, name }) => ({ id, name })),
  };
  const query: Record<string, string> = Object.create(null);
  if (filters.actor) query.actor = filters.actor.replace(/^@/, "");
  if (filters.action) query.action = filters.action;
  if (filters.group) query.groupId = filters.group;
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = endOfDay(filters.to);
  if (cursor) query.cursor = cursor;
  query.limit = String(AUDIT_PER_PAGE);
  const formNames = (message: string) => message.replace(/\bgroupId\b/g, "group");
  return {
    ...data,
    ...await loadPageOrRefusal(
      auditQuerySchema,
      query,
      formNames,
      (valid) => queryAudit(kv, principal, valid),
    ),
  };
}
