/**
 * What a person may see, asked of GitHub (`github_caller.ts`), for personal notifications and
 * personal review reminders (`docs/personal.md`):
 *
 * - whether their own token reads a repository (`GET /repos/{owner}/{repo}`): a yes is cached
 *   ten minutes, a 404 or 403 one minute (so a refusal is soon asked again);
 * - who belongs to a team (`GET /orgs/{org}/teams/{slug}/members`), read with the first token of
 *   a group's members that may (owners first), at most {@link MAX_TEAM_MEMBERS}: cached ten
 *   minutes, or one minute when no token could read it.
 *
 * A 401, or no usable token, means the person's token was revoked or expired: they must link
 * again. Any other failure throws, so the job asking tries again later.
 */
import { gitHubAsUser } from "./github_caller.ts";
import type { TokenDeps } from "./user_tokens.ts";
import { type GitHubCaller, type GitHubOutcome, repoPath } from "../github/client.ts";
import { normalizeGithubLogin } from "../store/auth/links.ts";
import {
  ANSWER_KEEP_MAX_MS,
  cacheAnswer,
  cachedAnswer,
  repoAccessAnswer,
  teamMembersAnswer,
} from "../store/notify/notify_cache.ts";
import type { Group } from "../types.ts";

/** How long a yes (or a team's members) is cached: the longest an answer is kept. */
const ACCESS_YES_MS = ANSWER_KEEP_MAX_MS;
/** How long a 404 or 403 is cached. */
const ACCESS_NO_MS = 60_000;
/** Most members read of one team (pages of 100). */
const MAX_TEAM_MEMBERS = 500;
const PAGE = 100;
/** Most people whose tokens are tried for one team. */
const MAX_TEAM_READERS = 5;

/** What asking GitHub came to. */
export type Access = "yes" | "no" | "relink";

/** Said to a person whose GitHub token stopped working, once per stored token. */
export const RELINK_TEXT =
  "Your GitHub sign-in no longer works (revoked or expired), so your personal notifications " +
  "and reminders stopped. Send /gh login in this chat (Telegram) or /gh link (Discord) to link " +
  "again.";

/** A GitHub failure that is neither an answer nor a dead token: the job tries again. */
class GitHubUnavailableError extends Error {}

function accessOf(outcome: GitHubOutcome<unknown>): Access {
  if (outcome.kind === "ok") return "yes";
  if (outcome.kind === "no_token") return "relink";
  if (outcome.kind === "refused" && outcome.status === 401) return "relink";
  if (outcome.kind === "refused" && (outcome.status === 404 || outcome.status === 403)) {
    return "no";
  }
  throw new GitHubUnavailableError(
    `GitHub did not answer: ${outcome.kind} ${"status" in outcome ? outcome.status : ""}`,
  );
}

/** Whether the person's token reads `repository` (`owner/name`). */
export async function canRead(
  deps: TokenDeps,
  userId: string,
  repository: string,
): Promise<Access> {
  const answer = repoAccessAnswer(userId, repository.toLowerCase());
  const cached = await cachedAnswer(deps.kv, answer);
  if (cached !== null) return cached ? "yes" : "no";
  const [owner, repo] = repository.split("/");
  const call = gitHubAsUser(deps, userId);
  const access = accessOf(await call({ method: "GET", path: repoPath(owner, repo) }));
  if (access !== "relink") {
    const yes = access === "yes";
    await cacheAnswer(deps.kv, answer, yes, yes ? ACCESS_YES_MS : ACCESS_NO_MS);
  }
  return access;
}

/** Members of `group` whose tokens are tried for the group's reads: owners, admins, viewers. */
export function groupReaders(group: Group): string[] {
  const rank = { owner: 0, admin: 1, viewer: 2 } as const;
  return [...group.members].sort((a, b) => rank[a.role] - rank[b.role]).map((m) => m.userId);
}

/** The team's member logins as `call` reads them, or null when its token may not. */
async function readTeamMembers(call: GitHubCaller, team: string): Promise<string[] | null> {
  const [org, slug] = team.split("/").map(encodeURIComponent);
  const logins = new Set<string>();
  for (let page = 1; logins.size < MAX_TEAM_MEMBERS; page++) {
    const path = `/orgs/${org}/teams/${slug}/members?per_page=${PAGE}&page=${page}`;
    const outcome = await call<unknown>({ method: "GET", path });
    if (outcome.kind !== "ok") {
      accessOf(outcome); // throws unless GitHub refused this token or there is none
      return null;
    }
    const body = Array.isArray(outcome.body) ? outcome.body : [];
    for (const member of body.slice(0, MAX_TEAM_MEMBERS - logins.size)) {
      const login = normalizeGithubLogin((member as { login?: unknown } | null)?.login);
      if (login) logins.add(login);
    }
    if (body.length < PAGE) break;
  }
  return [...logins];
}

/**
 * The logins (lower case) of the members of `team` (`org/slug`), read with the first of
 * `readers`' tokens that may; empty when none may.
 */
export async function teamMembers(
  deps: TokenDeps,
  team: string,
  readers: readonly string[],
): Promise<string[]> {
  const answer = teamMembersAnswer(team.toLowerCase());
  const cached = await cachedAnswer(deps.kv, answer);
  if (cached !== null) return cached;
  for (const userId of readers.slice(0, MAX_TEAM_READERS)) {
    const members = await readTeamMembers(gitHubAsUser(deps, userId), team);
    if (members === null) continue;
    await cacheAnswer(deps.kv, answer, members, ACCESS_YES_MS);
    return members;
  }
  await cacheAnswer(deps.kv, answer, [], ACCESS_NO_MS);
  return [];
}
