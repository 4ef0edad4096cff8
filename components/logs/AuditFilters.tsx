import { AUDIT_ACTION_CHOICES, type AuditPageData } from "../../lib/admin/audit_page.ts";
import { DayFields, FilterForm, GroupSelect, TextFilter } from "./FilterFields.tsx";

const ACTOR = { label: "Actor", name: "actor", placeholder: "login or user id", search: true };
const ACTION = { label: "Action", name: "action", placeholder: "group. or routes.replace" };
const ACTIONS = { listId: "audit-actions", values: AUDIT_ACTION_CHOICES };

/** The audit filters: a GET form. Days are UTC days, both included. */
export function AuditFilterForm(
  props: { filters: AuditPageData["filters"]; groups: AuditPageData["groups"] },
) {
  const { filters, groups } = props;
  return (
    <FilterForm action="/admin/audit" label="Filter audit entries">
      <div class="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        <TextFilter {...ACTOR} value={filters.actor} />
        <TextFilter {...ACTION} value={filters.action} choices={ACTIONS} />
        <GroupSelect groups={groups} selected={filters.group} />
        <DayFields from={filters.from} to={filters.to} />
      </div>
      <p class="text-xs text-slate-600 dark:text-slate-400">
        An action ending in a dot (<code>group.</code>) matches the whole family.
      </p>
    </FilterForm>
  );
}
