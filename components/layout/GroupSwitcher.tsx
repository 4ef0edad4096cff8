import { INPUT, SECONDARY_BUTTON } from "./ui.ts";

/**
 * The header's group switcher: a GET form that opens `path?group=<id>` (every group, or one),
 * so it works without JavaScript and with the keyboard like any form.
 */
export function GroupSwitcher(
  props: { path: string; groups: readonly { id: string; name: string }[]; current?: string },
) {
  return (
    <form method="get" action={props.path} class="flex min-w-0 items-center gap-2">
      <label for="group-switcher" class="shrink-0 text-sm font-medium">Group</label>
      <select
        id="group-switcher"
        name="group"
        class={`min-w-0 flex-1 md:max-w-48 ${INPUT}`}
      >
        <option value="" selected={props.current === undefined}>All groups</option>
        {props.groups.map((group) => (
          <option key={group.id} value={group.id} selected={group.id === props.current}>
            {group.name === group.id ? group.id : `${group.name} (${group.id})`}
          </option>
        ))}
      </select>
      <button type="submit" class={`${SECONDARY_BUTTON} py-1.5`}>Switch</button>
    </form>
  );
}
