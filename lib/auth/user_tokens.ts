/**
 * A user's usable GitHub access token: the stored one while it is fresh, a
 * refreshed one once it is stale and a refresh token exists. A refresh
 * replaces the record only if nobody replaced it meanwhile; when a concurrent
 * request won that race, its token is used instead.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Config } from "../config.ts";
import type { AuditEntry } from "../store/telemetry/audit.ts";
import {
  canRefresh,
  getToken,
  isFresh,
  type IssuedToken,
  saveToken,
  type UserToken,
} from "../store/auth/tokens.ts";
import { isOAuthFailure, refreshGrant } from "./oauth.ts";

/** The services token handling needs (a request's state fits). */
export interface TokenDeps {
  kv: Kv;
  config: Config;
}

/** Stores a freshly issued token for the user, with `audit` in the same commit when given. */
export async function storeUserToken(
  deps: TokenDeps,
  token: IssuedToken,
  now: number = Date.now(),
  audit?: AuditEntry,
): Promise<void> {
  await saveToken(deps.kv, token, { encryptionKey: deps.config.tokenEncryptionKey, now, audit });
}

/** The user's stored token as it is (fresh or not), or null. */
export function storedUserToken(
  deps: TokenDeps,
  userId: string,
  now: number = Date.now(),
): Promise<UserToken | null> {
  return getToken(deps.kv, userId, { encryptionKey: deps.config.tokenEncryptionKey, now });
}

/**
 * Refreshes the user's token with its refresh token. Returns the new token,
 * the token another request stored meanwhile, or null when there is nothing
 * to refresh with or GitHub refused (the user must sign in again).
 */
export async function refreshUserToken(
  deps: TokenDeps,
  token: UserToken,
  now: number = Date.now(),
): Promise<UserToken | null> {
  if (!token.refreshToken || !canRefresh(token, now)) return null;
  const grant = await refreshGrant(deps.config, token.refreshToken, now);
  if (isOAuthFailure(grant)) {
    const current = await storedUserToken(deps, token.userId, now);
    return current && current.versionstamp !== token.versionstamp ? current : null;
  }
  await saveToken(deps.kv, { userId: token.userId, login: token.login, ...grant }, {
    encryptionKey: deps.config.tokenEncryptionKey,
    now,
    ifVersionstamp: token.versionstamp,
  });
  return await storedUserToken(deps, token.userId, now);
}

/**
 * A token that may be used now: the stored one while fresh, else a refreshed
 * one; null when the user has no usable token.
 */
export async function usableUserToken(
  deps: TokenDeps,
  userId: string,
  now: number = Date.now(),
): Promise<UserToken | null> {
  const token = await storedUserToken(deps, userId, now);
  if (!token) return null;
  if (isFresh(token, now)) return token;
  return await refreshUserToken(deps, token, now);
}
