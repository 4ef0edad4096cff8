import { AUDIT_ACTION_CHOICES, type AuditPageData } from "../../lib/admin/audit_page.ts";
import { DayFields, FilterActions, GroupSelect } from "./FilterFields.tsx";
import { INPUT, LABEL } from "./ui.ts";

/** The audit filters: a GET form. Days are UTC days, both included. */
export function AuditFilterForm(
  props: { filters: AuditPageData["filters"]; groups: AuditPageData["groups"] },
) {
  const { filters, groups } = props;
  return (
    <form method="get" action="/admin/audit" class="grid gap-3" aria-label="Filter audit entries">
      <div class="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        <label class={LABEL}>
          Actor
          <input
            class={INPUT}
            type="search"
            name="actor"
            value={filters.actor ?? ""}
            maxLength={100}
            placeholder="login or user id"
            data-search
          />
        </label>
        <label class={LABEL}>
          Action
          <input
            class={INPUT}
            name="action"
            list="audit-actions"
            value={filters.action ?? ""}
            maxLength={100}
            placeholder="group. or routes.replace"
          />
          <datalist id="audit-actions">
            {AUDIT_ACTION_CHOICES.map((action) => <option key={action} value={action} />)}
          </datalist>
        </label>
        <GroupSelect groups={groups} selected={filters.group} />
        <DayFields from={filters.from} to={filters.to} />
      </div>
      <p class="text-xs text-slate-600 dark:text-slate-400">
        An action ending in a dot (<code>group.</code>) matches the whole family.
      </p>
      <FilterActions resetHref="/admin/audit" />
    </form>
  );
}
