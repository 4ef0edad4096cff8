import type { GroupProblems, RouteProblem } from "../../lib/admin/route_problems.ts";
import HeldTargetActions from "../../islands/problems/HeldTargetActions.tsx";

const KIND_LABELS = new Map<RouteProblem["kind"], string>([
  ["platform_not_configured", "Platform not configured"],
  ["target_paused", "Target paused"],
  ["target_unreachable", "Bot cannot post"],
  ["not_firing", "Not firing"],
]);

function ProblemItem(props: { groupId: string; problem: RouteProblem; groupName?: string }) {
  const { problem } = props;
  const editor = `/admin/routes/${encodeURIComponent(props.groupId)}/edit/${
    encodeURIComponent(problem.routeId)
  }`;
  return (
    <li class="py-2" data-problem={problem.kind} data-route={problem.routeId}>
      <p class="text-sm">
        <span class="mr-2 inline-block rounded bg-amber-200 px-1.5 py-0.5 text-xs font-semibold text-amber-950 dark:bg-amber-800 dark:text-amber-50">
          {KIND_LABELS.get(problem.kind)}
        </span>
        {props.groupName && <span class="font-medium">{`${props.groupName}: `}</span>}
        {problem.routeId === ""
          ? <span class="font-medium">{problem.routeName}</span>
          : <a class="font-medium underline" href={editor}>{problem.routeName}</a>}
        {" — "}
        {problem.message}
      </p>
      <p class="mt-0.5 text-sm">
        <span class="font-medium">Fix:</span> {problem.fix}
      </p>
      {problem.kind === "target_paused" && problem.targetKey && (
        <HeldTargetActions groupId={props.groupId} targetKey={problem.targetKey} />
      )}
    </li>
  );
}

/**
 * What keeps routes from reaching the chat, each with its fix: one group's problems, or (with
 * `groups`) those of every group the person reads. Renders nothing when all is well.
 */
export function RouteProblems(
  props: { groups: GroupProblems[]; showGroup?: boolean },
) {
  const count = props.groups.reduce((sum, group) => sum + group.problems.length, 0);
  if (count === 0) return null;
  return (
    <section
      aria-labelledby="problems-title"
      data-testid="route-problems"
      class="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <h2 id="problems-title" class="text-base font-semibold">
        {count === 1 ? "1 problem needs attention" : `${count} problems need attention`}
      </h2>
      <ul class="mt-1 divide-y divide-amber-200 dark:divide-amber-800">
        {props.groups.flatMap((group) =>
          group.problems.map((problem) => (
            <ProblemItem
              key={`${group.groupId} ${problem.kind} ${problem.routeId} ${
                JSON.stringify(problem.target ?? null)
              }`}
              groupId={group.groupId}
              groupName={props.showGroup ? group.groupName : undefined}
              problem={problem}
            />
          ))
        )}
      </ul>
    </section>
  );
}
