import { bindingOf } from "../../lib/admin/group_pages.ts";
import type { Group, Role } from "../../lib/types.ts";
import { BADGE, BADGE_TONES, CARD, MUTED } from "./ui.ts";

/** The top of a group's page: its id, the person's role, its binding, and the page's sections. */
export function GroupSummary(
  props: { group: Group; role: Role; sections: readonly (readonly [string, string])[] },
) {
  const { group } = props;
  const binding = bindingOf(group);
  return (
    <section class={`${CARD} mb-6`} aria-label="Group summary">
      <dl class="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt class="font-medium">Id</dt>
        <dd class="font-mono break-all">{group.id}</dd>
        <dt class="font-medium">Your role</dt>
        <dd>
          <span class={`${BADGE} ${BADGE_TONES[props.role]}`}>{props.role}</span>
          {props.role !== "owner" && (
            <span class={`ml-2 ${MUTED}`}>
              owners manage members, invites, the webhook, the name and the id
            </span>
          )}
        </dd>
        <dt class="font-medium">Binding</dt>
        <dd class="break-words">{binding ?? "none: events reach it through its own webhook"}</dd>
        {group.providers && (
          <>
            <dt class="font-medium">Forges</dt>
            <dd>{group.providers.join(" and ")} only</dd>
          </>
        )}
      </dl>
      <nav
        aria-label="On this page"
        class="mt-4 border-t border-slate-200 pt-3 dark:border-slate-700"
      >
        <ul class="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <li>
            <a href="/admin/groups" class="text-indigo-700 hover:underline dark:text-indigo-300">
              ← All groups
            </a>
          </li>
          {props.sections.map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`} class="text-indigo-700 hover:underline dark:text-indigo-300">
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
