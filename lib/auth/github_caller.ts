/**
 * Who GitHub is called as: callers built on a user's stored token (`user_tokens.ts`) for the
 * pure client in lib/github/.
 *
 * - {@link gitHubAsUser}, for the user's own signed-in requests (the install flow): a stale
 *   token is refreshed before the call, and when GitHub still answers 401 (revoked or expired
 *   early) the token is refreshed once and the call retried.
 * - {@link gitHubAsBearer}, for the bearer action API: only a fresh stored token is used and
 *   nothing is refreshed, so a 401 from GitHub is final. A token GitHub stopped accepting
 *   (revoked) never works again through a refresh made on the bearer's behalf: whoever holds
 *   it signs in again.
 */
import {
  callGitHub,
  type GitHubCaller,
  type GitHubOutcome,
  type GitHubRequest,
} from "../github/client.ts";
import { isFresh } from "../store/auth/tokens.ts";
import {
  refreshUserToken,
  storedUserToken,
  type TokenDeps,
  usableUserToken,
} from "./user_tokens.ts";

/** Calls GitHub as the signed-in user `userId`, refreshing as the module comment says. */
export function gitHubAsUser(deps: TokenDeps, userId: string): GitHubCaller {
  return async <T>(request: GitHubRequest): Promise<GitHubOutcome<T>> => {
    const token = await usableUserToken(deps, userId);
    if (!token) return { kind: "no_token" };
    const apiUrl = deps.config.github.apiUrl;
    const outcome = await callGitHub<T>(apiUrl, token.accessToken, request);
    if (outcome.kind !== "refused" || outcome.status !== 401 || !token.refreshToken) return outcome;
    const refreshed = await refreshUserToken(deps, token);
    if (!refreshed) return outcome;
    return await callGitHub<T>(apiUrl, refreshed.accessToken, request);
  };
}

/** Calls GitHub for a bearer of `userId`'s token: the stored token while fresh, never refreshed. */
export function gitHubAsBearer(deps: TokenDeps, userId: string): GitHubCaller {
  return async <T>(request: GitHubRequest): Promise<GitHubOutcome<T>> => {
    const token = await storedUserToken(deps, userId);
    if (!token || !isFresh(token, Date.now())) return { kind: "no_token" };
    return await callGitHub<T>(deps.config.github.apiUrl, token.accessToken, request);
  };
}
