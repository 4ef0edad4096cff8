/**
 * What a person may see, asked of GitHub with their own token (`lib/auth/github_caller.ts`):
 * whether it reads a repository (`GET /repos/{owner}/{repo}`), and whether they belong to a
 * team (`GET /orgs/{org}/teams/{slug}/memberships/{login}`). Answers are cached: a yes for
 * ten minutes, a 404 or 403 for one minute (so a refusal is soon checked again). A 401, or no
 * usable token, means the token was revoked or expired: the person must link again.
 */
import { gitHubAsUser } from "../auth/github_caller.ts";
import type { TokenDeps } from "../auth/user_tokens.ts";
import { repoPath } from "../github/client.ts";
import {
  cachedRepoAccess,
  cachedTeamMembership,
  cacheRepoAccess,
  cacheTeamMembership,
} from "../store/notify/notify_cache.ts";

/** How long a yes is cached. */
const ACCESS_YES_MS = 10 * 60_000;
/** How long a 404 or 403 is cached. */
const ACCESS_NO_MS = 60_000;

/** What asking GitHub came to. */
export type Access = "yes" | "no" | "relink";

/** A GitHub failure that is neither an answer nor a dead token: the job tries again. */
class GitHubUnavailableError extends Error {}

function answerOf(outcome: { kind: string; status?: number; message?: string }): Access {
  if (outcome.kind === "ok") return "yes";
  if (outcome.kind === "no_token") return "relink";
  if (outcome.kind === "refused" && outcome.status === 401) return "relink";
  if (outcome.kind === "refused" && (outcome.status === 404 || outcome.status === 403)) {
    return "no";
  }
  throw new GitHubUnavailableError(
    `GitHub did not answer: ${outcome.kind} ${outcome.status ?? ""}`,
  );
}

/** Whether the person's token reads `repository` (`owner/name`). */
export async function canRead(deps: TokenDeps, userId: string, repository: string) {
  const key = repository.toLowerCase();
  const cached = await cachedRepoAccess(deps.kv, userId, key);
  if (cached !== null) return cached ? "yes" : "no";
  const [owner, repo] = repository.split("/");
  const answer = answerOf(
    await gitHubAsUser(deps, userId)({ method: "GET", path: repoPath(owner, repo) }),
  );
  if (answer !== "relink") {
    await cacheRepoAccess(
      deps.kv,
      userId,
      key,
      answer === "yes",
      answer === "yes" ? ACCESS_YES_MS : ACCESS_NO_MS,
    );
  }
  return answer;
}

/** Whether the person (`login`) is an active member of `team` (`org/slug`). */
export async function inTeam(
  deps: TokenDeps,
  userId: string,
  login: string,
  team: string,
): Promise<Access> {
  const cached = await cachedTeamMembership(deps.kv, userId, team);
  if (cached !== null) return cached ? "yes" : "no";
  const [org, slug] = team.split("/");
  const path = `/orgs/${encodeURIComponent(org)}/teams/${encodeURIComponent(slug)}/memberships/${
    encodeURIComponent(login)
  }`;
  const outcome = await gitHubAsUser(deps, userId)<{ state?: string }>({ method: "GET", path });
  let answer = answerOf(outcome);
  if (answer === "yes" && outcome.kind === "ok" && outcome.body?.state !== "active") answer = "no";
  if (answer !== "relink") {
    await cacheTeamMembership(
      deps.kv,
      userId,
      team,
      answer === "yes",
      answer === "yes" ? ACCESS_YES_MS : ACCESS_NO_MS,
    );
  }
  return answer;
}
