/**
 * GitHub REST calls with an access token the caller hands in. Whose token it is, and whether
 * it is refreshed, is decided above this client (`lib/auth/github_caller.ts`), which gives the
 * action and installation lookups a {@link GitHubCaller}.
 */
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

/** Makes requests as one GitHub user, with whatever token that user may use now. */
export type GitHubCaller = <T>(request: GitHubRequest) => Promise<GitHubOutcome<T>>;

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

/** Sends one request to the REST API at `apiUrl` with `accessToken`. */
export function callGitHub<T>(
  apiUrl: string,
  accessToken: string,
  request: GitHubRequest,
): Promise<CallOutcome<T>> {
  return callJson<T>(`${apiUrl}${request.path}`, {
    method: request.method,
    headers: { ...GITHUB_API_HEADERS, authorization: `Bearer ${accessToken}` },
    body: request.body,
  });
}
