/**
 * GitHub REST calls made as a signed-in user, with the user's stored token.
 * A stale token is refreshed before the call; when GitHub still answers 401
 * (revoked or expired early), the token is refreshed once and the call retried.
 */
import { refreshUserToken, type TokenDeps, usableUserToken } from "../auth/user_tokens.ts";
import { callJson, type CallOutcome } from "../http_client.ts";
import { GITHUB_API_HEADERS } from "./headers.ts";

/** A call's outcome, or `no_token` when the user has no usable token. */
export type GitHubOutcome<T> = CallOutcome<T> | { kind: "no_token" };

/** One REST request: a method, a path below GITHUB_API_URL and an optional JSON body. */
export interface GitHubRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
}

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Builds a repository path with every segment encoded: `repoPath("o", "r", "pulls", 1)`. An
 * empty or dot segment (`.`, `..`, which URLs resolve even when percent-encoded) is a
 * programming error: the request schemas refuse such names first.
 */
export function repoPath(owner: string, repo: string, ...rest: (string | number)[]): string {
  const segments = [owner, repo, ...rest.map(String)];
  for (const segment of segments) {
    if (segment === "" || DOT_SEGMENT.test(segment)) {
      throw new TypeError(`Refusing the GitHub path segment "${segment}"`);
    }
  }
  return ["/repos", ...segments.map(encodeURIComponent)].join("/");
}

function send<T>(deps: TokenDeps, accessToken: string, request: GitHubRequest) {
  return callJson<T>(`${deps.config.github.apiUrl}${request.path}`, {
    method: request.method,
    headers: { ...GITHUB_API_HEADERS, authorization: `Bearer ${accessToken}` },
    body: request.body,
  });
}

/** Calls GitHub as the user `userId` (see the module comment for refreshing). */
export async function callGitHubAsUser<T>(
  deps: TokenDeps,
  userId: string,
  request: GitHubRequest,
): Promise<GitHubOutcome<T>> {
  const token = await usableUserToken(deps, userId);
  if (!token) return { kind: "no_token" };
  const outcome = await send<T>(deps, token.accessToken, request);
  if (outcome.kind !== "refused" || outcome.status !== 401 || !token.refreshToken) return outcome;
  const refreshed = await refreshUserToken(deps, token);
  if (!refreshed) return outcome;
  return await send<T>(deps, refreshed.accessToken, request);
}
