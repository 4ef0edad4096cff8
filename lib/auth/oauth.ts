/**
 * GitHub's OAuth web flow (GitHub App user tokens or an OAuth App): the
 * authorize address, the code exchange, the refresh and the user lookup.
 * GitHub App user tokens come with `expires_in` and a `refresh_token`; OAuth
 * App tokens never expire and carry neither.
 */
import type { Config } from "../config.ts";
import { callJson } from "../http_client.ts";
import type { IssuedToken } from "../store/auth/tokens.ts";
import { GITHUB_API_HEADERS } from "../github/headers.ts";

/** The GitHub account behind a token. */
export interface GitHubUser {
  /** The numeric GitHub user id, as a string (stable; logins can change). */
  userId: string;
  login: string;
}

/** What a token request answered, before it is tied to a user. */
type TokenGrant = Omit<IssuedToken, "userId" | "login">;

/** Why GitHub did not hand out a token or a user. */
export type OAuthFailure =
  | { kind: "refused"; message: string }
  | { kind: "unreachable"; message: string };

/** The callback address registered with GitHub. */
function callbackUrl(config: Config): string {
  return `${config.baseUrl}/auth/github/callback`;
}

/**
 * GitHub's authorize address for a state. `scope=repo` lets an OAuth App
 * comment, merge and close; a GitHub App ignores scopes and uses its own
 * permissions.
 */
export function authorizeUrl(config: Config, state: string): string {
  const url = new URL(`${config.github.url}/login/oauth/authorize`);
  url.searchParams.set("client_id", config.github.clientId ?? "");
  url.searchParams.set("redirect_uri", callbackUrl(config));
  url.searchParams.set("scope", "repo");
  url.searchParams.set("state", state);
  url.searchParams.set("allow_signup", "false");
  return url.href;
}

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  error?: string;
  error_description?: string;
}

async function requestToken(
  config: Config,
  params: Record<string, string>,
  now: number,
): Promise<TokenGrant | OAuthFailure> {
  const outcome = await callJson<TokenAnswer>(`${config.github.url}/login/oauth/access_token`, {
    headers: { accept: "application/json" },
    body: {
      client_id: config.github.clientId,
      client_secret: config.github.clientSecret,
      ...params,
    },
  });
  if (outcome.kind === "unreachable") return outcome;
  if (outcome.kind === "refused") return { kind: "refused", message: outcome.message };
  const answer = outcome.body ?? {};
  if (typeof answer.access_token !== "string" || answer.access_token === "") {
    const reason = answer.error_description ?? answer.error ?? "no access token in the answer";
    return { kind: "refused", message: reason };
  }
  const grant: TokenGrant = {
    accessToken: answer.access_token,
    expiresAt: typeof answer.expires_in === "number" ? now + answer.expires_in * 1000 : null,
  };
  if (typeof answer.refresh_token === "string" && answer.refresh_token !== "") {
    grant.refreshToken = answer.refresh_token;
    grant.refreshTokenExpiresAt = typeof answer.refresh_token_expires_in === "number"
      ? now + answer.refresh_token_expires_in * 1000
      : null;
  }
  return grant;
}

/** Whether a token request or user lookup failed. */
export function isOAuthFailure<T extends object>(value: T | OAuthFailure): value is OAuthFailure {
  return "kind" in value && (value.kind === "refused" || value.kind === "unreachable");
}

/** Exchanges an authorization code for a token. */
export function exchangeCode(
  config: Config,
  code: string,
  now: number = Date.now(),
): Promise<TokenGrant | OAuthFailure> {
  return requestToken(config, { code, redirect_uri: callbackUrl(config) }, now);
}

/** Trades a refresh token for a new access and refresh token (the old ones stop working). */
export function refreshGrant(
  config: Config,
  refreshToken: string,
  now: number = Date.now(),
): Promise<TokenGrant | OAuthFailure> {
  return requestToken(config, { grant_type: "refresh_token", refresh_token: refreshToken }, now);
}

/** The GitHub account an access token belongs to (`GET /user`). */
export async function fetchUser(
  config: Config,
  accessToken: string,
): Promise<GitHubUser | OAuthFailure> {
  const outcome = await callJson<{ id?: unknown; login?: unknown }>(
    `${config.github.apiUrl}/user`,
    {
      headers: { ...GITHUB_API_HEADERS, authorization: `Bearer ${accessToken}` },
    },
  );
  if (outcome.kind === "unreachable") return outcome;
  if (outcome.kind === "refused") return { kind: "refused", message: outcome.message };
  const { id, login } = outcome.body ?? {};
  if (typeof id !== "number" || typeof login !== "string") {
    return { kind: "refused", message: "GitHub answered a user without id or login" };
  }
  return { userId: String(id), login };
}
