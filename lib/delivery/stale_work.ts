/**
 * A channel reminder's stale work (docs/reminders.md): the open pull requests and issues of the
 * group's indexes with no activity (GitHub's `updated_at`) for the reminder's number of days,
 * with one of its labels when it names some and none of its excluded labels (names compared
 * without case), least recently active first.
 */
import type { Kv } from "../store/backend/types.ts";
import type { StaleFilter } from "../store/config/reminders.ts";
import { listOpenIssues } from "../store/delivery/open_issues.ts";
import type { OpenPull } from "../store/delivery/open_pulls.ts";
import type { StaleItem } from "./reminder_message.ts";

const DAY_MS = 24 * 3_600_000;

/** Whether labels `labels` pass `filter`'s include and exclude lists. */
function labelsPass(filter: StaleFilter, labels: readonly string[]): boolean {
  const has = new Set(labels.map((label) => label.toLowerCase()));
  const included = filter.labels.length === 0 ||
    filter.labels.some((label) => has.has(label.toLowerCase()));
  return included && !filter.excludeLabels.some((label) => has.has(label.toLowerCase()));
}

/**
 * The stale work of the group `internalId`: of `pulls` (its open pull requests, as the index
 * holds them after the refresh) and its open issues, those idle `filter.days` days at `now`.
 */
export async function staleWork(
  kv: Kv,
  internalId: string,
  pulls: readonly OpenPull[],
  filter: StaleFilter,
  now: number,
): Promise<StaleItem[]> {
  const before = now - filter.days * DAY_MS;
  const items: StaleItem[] = [];
  for (const pull of pulls) {
    if (pull.updatedAt <= before && labelsPass(filter, pull.labels ?? [])) {
      items.push({ kind: "pull request", ...pull });
    }
  }
  for (const issue of await listOpenIssues(kv, internalId)) {
    if (issue.updatedAt <= before && labelsPass(filter, issue.labels)) {
      items.push({ kind: "issue", ...issue });
    }
  }
  return items.sort((a, b) =>
    a.updatedAt - b.updatedAt || a.repository.localeCompare(b.repository) || a.number - b.number
  );
}
