/** Fields the GET filter forms of the logs, audit and events pages share. */
import { INPUT, LABEL, PRIMARY_BUTTON, SECONDARY_BUTTON } from "./ui.ts";

/** The `group` filter: every group the person can read, or one. */
export function GroupSelect(
  props: { groups: readonly { id: string; name: string }[]; selected?: string },
) {
  return (
    <label class={LABEL}>
      Group
      <select class={INPUT} name="group">
        <option value="">All my groups</option>
        {props.groups.map((group) => (
          <option key={group.id} value={group.id} selected={props.selected === group.id}>
            {group.name === group.id ? group.id : `${group.name} (${group.id})`}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The `from` and `to` filters: UTC days, both included. */
export function DayFields(props: { from?: string; to?: string }) {
  return (
    <>
      <label class={LABEL}>
        From (UTC day)
        <input class={INPUT} type="date" name="from" value={props.from ?? ""} />
      </label>
      <label class={LABEL}>
        To (UTC day)
        <input class={INPUT} type="date" name="to" value={props.to ?? ""} />
      </label>
    </>
  );
}

/** Apply, and Reset (the page without filters). */
export function FilterActions(props: { resetHref: string }) {
  return (
    <div class="flex flex-wrap gap-2">
      <button type="submit" class={PRIMARY_BUTTON}>Apply filters</button>
      <a href={props.resetHref} class={SECONDARY_BUTTON}>Reset</a>
    </div>
  );
}
