import type { GroupProblems, RouteProblem } from "../../lib/admin/route_problems.ts";
import HeldTargetActions from "../../islands/problems/HeldTargetActions.tsx";

const KIND_LABELS = new Map<RouteProblem["kind"], string>([
  ["filter_invalid", "Filter invalid"],
  ["platform_not_configured", "Platform not configured"],
  ["target_paused", "Target paused"],
  ["not_firing", "Not firing"],
]);

/** Routes named in an item that several routes share; the rest are counted. */
const ROUTES_NAMED = 5;

/** One line of the list: a problem of one route, or the same problem of several routes. */
interface ProblemEntry {
  groupId: string;
  groupName: string;
  problem: RouteProblem;
  /** Every route with this problem (one, unless they share its message and fix). */
  routes: { routeId: string; routeName: string }[];
}

function editorOf(groupId: string, routeId: string): string {
  return `/admin/routes/${encodeURIComponent(groupId)}/edit/${encodeURIComponent(routeId)}`;
}

function RouteLink(props: { groupId: string; routeId: string; routeName: string }) {
  return props.routeId === ""
    ? <span class="font-medium">{props.routeName}</span>
    : (
      <a class="font-medium underline" href={editorOf(props.groupId, props.routeId)}>
        {props.routeName}
      </a>
    );
}

/** The routes an entry names: one, or the first few of many and how many more. */
function RoutesNamed(props: { entry: ProblemEntry }) {
  const { groupId, routes } = props.entry;
  if (routes.length === 1) return <RouteLink groupId={groupId} {...routes[0]} />;
  const named = routes.slice(0, ROUTES_NAMED);
  const more = routes.length - named.length;
  return (
    <>
      <span class="font-medium">{`${routes.length} routes`}</span>
      {" ("}
      {named.map((route, index) => (
        <span key={route.routeId}>
          {index > 0 && ", "}
          <RouteLink groupId={groupId} {...route} />
        </span>
      ))}
      {more > 0 && ` and ${more} more`}
      {")"}
    </>
  );
}

function ProblemItem(props: { entry: ProblemEntry; showGroup?: boolean }) {
  const { entry } = props;
  const { problem } = entry;
  return (
    <li
      class="py-2"
      data-problem={problem.kind}
      data-route={entry.routes.length === 1 ? problem.routeId : undefined}
      data-routes={entry.routes.length}
    >
      <p class="text-sm">
        <span class="mr-2 inline-block rounded bg-amber-200 px-1.5 py-0.5 text-xs font-semibold text-amber-950 dark:bg-amber-800 dark:text-amber-50">
          {KIND_LABELS.get(problem.kind)}
        </span>
        {props.showGroup && <span class="font-medium">{`${entry.groupName}: `}</span>}
        <RoutesNamed entry={entry} />
        {" — "}
        {problem.message}
      </p>
      <p class="mt-0.5 text-sm">
        <span class="font-medium">Fix:</span> {problem.fix}
      </p>
      {problem.kind === "target_paused" && problem.targetKey && (
        <HeldTargetActions groupId={entry.groupId} targetKey={problem.targetKey} />
      )}
    </li>
  );
}

/**
 * The list's entries: a group's problems that say the same thing with the same fix (a platform
 * without a bot token, routes that did not fire) become one entry naming their routes; a paused
 * target keeps its own, with its buttons.
 */
function entriesOf(groups: GroupProblems[]): ProblemEntry[] {
  const entries: ProblemEntry[] = [];
  for (const group of groups) {
    const shared = new Map<string, ProblemEntry>();
    for (const problem of group.problems) {
      const route = { routeId: problem.routeId, routeName: problem.routeName };
      const key = problem.targetKey === undefined
        ? JSON.stringify([problem.kind, problem.message, problem.fix])
        : undefined;
      const same = key === undefined ? undefined : shared.get(key);
      if (same) {
        same.routes.push(route);
        continue;
      }
      const entry = {
        groupId: group.groupId,
        groupName: group.groupName,
        problem,
        routes: [route],
      };
      entries.push(entry);
      if (key !== undefined) shared.set(key, entry);
    }
  }
  return entries;
}

/**
 * What keeps routes from reaching the chat, each with its fix: one group's problems, or (with
 * `groups`) those of every group the person reads. Routes with the same problem share one entry.
 * Renders nothing when all is well.
 */
export function RouteProblems(
  props: { groups: GroupProblems[]; showGroup?: boolean },
) {
  const entries = entriesOf(props.groups);
  if (entries.length === 0) return null;
  const count = entries.length;
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
        {entries.map((entry) => (
          <ProblemItem
            key={`${entry.groupId} ${entry.problem.kind} ${entry.problem.routeId} ${
              entry.problem.targetKey ?? ""
            }`}
            entry={entry}
            showGroup={props.showGroup}
          />
        ))}
      </ul>
    </section>
  );
}
