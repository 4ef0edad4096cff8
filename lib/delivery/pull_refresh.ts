/**
 * Refreshes a group's index of open pull requests from GitHub before a reminder reads it, so a
 * missed event (a merge, a removed review request) does not leave a stale entry. Each followed
 * repository whose list is older than {@link REFRESH_EVERY_MS} is read again
 * (`GET /repos/{owner}/{repo}/pulls?state=open&per_page=100`, which carries each pull
 * request's requested reviewers and teams) with the first of the given people's tokens that can
 * read it, and its entries replaced by GitHub's list. A repository none of them may read keeps
 * its entries and is named in the answer; one GitHub cannot be reached for keeps them too. The
 * index is read before GitHub is asked, so a change an event makes meanwhile is never undone by
 * the older list (lib/store/delivery/open_pulls.ts).
 */
import type { GitHubCaller } from "../github/client.ts";
import { repoPath } from "../github/client.ts";
import { gitHubAsUser } from "../auth/github_caller.ts";
import type { TokenDeps } from "../auth/user_tokens.ts";
import type { Logger } from "../log.ts";
import {
  listPullRepositories,
  type OpenPull,
  type PullRepository,
  readRepositoryPulls,
  replaceRepositoryPulls,
} from "../store/delivery/open_pulls.ts";
import { openPullOf } from "./pull_index.ts";

/** How old a repository's list may be before a reminder reads it again. */
const REFRESH_EVERY_MS = 10 * 60_000;
/** Most repositories read from GitHub for one reminder. */
const MAX_REFRESHES = 20;
/** Most people whose tokens are tried for one repository. */
const MAX_CALLERS = 5;
const PAGE = 100;

/** Who the refresh may read GitHub as: GitHub user ids, tried in order. */
interface RefreshAs {
  deps: TokenDeps;
  userIds: readonly string[];
}

type ReadOutcome = { kind: "read"; pulls: OpenPull[]; complete: boolean } | { kind: "failed" };

async function readOpenPulls(
  callers: readonly GitHubCaller[],
  repository: string,
  now: number,
): Promise<ReadOutcome> {
  const [owner, name] = repository.split("/");
  const path = `${repoPath(owner, name, "pulls")}?state=open&per_page=${PAGE}`;
  for (const call of callers) {
    const outcome = await call<unknown>({ method: "GET", path });
    if (outcome.kind === "no_token") continue;
    if (outcome.kind === "refused" && [401, 403, 404].includes(outcome.status)) continue;
    if (outcome.kind !== "ok" || !Array.isArray(outcome.body)) return { kind: "failed" };
    const pulls = outcome.body.map((item) => openPullOf(repository, item, now))
      .filter((pull) => pull !== null);
    return { kind: "read", pulls, complete: outcome.body.length < PAGE };
  }
  return { kind: "failed" };
}

/**
 * Refreshes the stale repositories of the group `internalId` as `as` says (a repository none of
 * those people may read keeps its index as the events left it).
 */
export async function refreshGroupPulls(
  as: RefreshAs,
  log: Logger,
  internalId: string,
  now: number,
): Promise<void> {
  const callers = as.userIds.slice(0, MAX_CALLERS).map((userId) => gitHubAsUser(as.deps, userId));
  if (callers.length === 0) return;
  const repositories = await listPullRepositories(as.deps.kv, internalId);
  const stale = repositories
    .filter((repo: PullRepository) => now - (repo.refreshedAt ?? 0) >= REFRESH_EVERY_MS)
    .sort((a, b) => (a.refreshedAt ?? 0) - (b.refreshedAt ?? 0))
    .slice(0, MAX_REFRESHES);
  for (const { repository } of stale) {
    try {
      const before = await readRepositoryPulls(as.deps.kv, internalId, repository);
      const outcome = await readOpenPulls(callers, repository, now);
      if (outcome.kind === "read") {
        await replaceRepositoryPulls(
          as.deps.kv,
          internalId,
          before,
          outcome.pulls,
          outcome.complete,
          now,
        );
      }
    } catch (error) {
      log.warn("open pull requests not refreshed", { repository, error });
    }
  }
}
