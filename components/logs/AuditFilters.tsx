import { AUDIT_ACTION_CHOICES, type AuditPageData } from "../../lib/admin/audit_page.ts";
import { INPUT, LABEL, PRIMARY_BUTTON, SECONDARY_BUTTON } from "./ui.ts";

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
        <label class={LABEL}>
          Group
          <select class={INPUT} name="group">
            <option value="">All my groups</option>
            {groups.map((group) => (
              <option key={group.id} value={group.id} selected={filters.group === group.id}>
                {group.name === group.id ? group.id : `${group.name} (${group.id})`}
              </option>
            ))}
          </select>
        </label>
        <label class={LABEL}>
          From (UTC day)
          <input class={INPUT} type="date" name="from" value={filters.from ?? ""} />
        </label>
        <label class={LABEL}>
          To (UTC day)
          <input class={INPUT} type="date" name="to" value={filters.to ?? ""} />
        </label>
      </div>
      <p class="text-xs text-slate-600 dark:text-slate-400">
        An action ending in a dot (<code>group.</code>) matches the whole family.
      </p>
      <div class="flex flex-wrap gap-2">
        <button type="submit" class={PRIMARY_BUTTON}>Apply filters</button>
        <a href="/admin/audit" class={SECONDARY_BUTTON}>Reset</a>
      </div>
    </form>
  );
}
