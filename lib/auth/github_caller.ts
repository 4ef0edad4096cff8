/**
 * Who GitHub is called as: a caller built on a user's stored token (`user_tokens.ts`) for the
 * pure client in lib/github/. A stale token is refreshed before the call, and when GitHub
 * still answers 401 (revoked or expired early) the token is refreshed once and the call retried.
 */
import {
  callGitHub,
  type GitHubCaller,
  type GitHubOutcome,
  type GitHubRequest,
} from "../github/client.ts";
import { refreshUserToken, type TokenDeps, usableUserToken } from "./user_tokens.ts";

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
