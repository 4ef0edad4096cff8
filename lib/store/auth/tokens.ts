/**
 * Stored GitHub user tokens: `["token", userId]`
 * holds the token record, `["token-reverse", sha256hex(accessToken)]` maps the
 * access token back to its user for the bearer API. Both are written, and the
 * previous reverse entry removed, in one atomic operation. With
 * TOKEN_ENCRYPTION_KEY set, the access and refresh tokens are sealed (AES-GCM).
 *
 * Lifetime: an access token is *stale* at 90% of its lifetime, never sooner
 * than 60 s after it was stored. A token without a refresh token is useless
 * once stale, so its record (and reverse entry) expire then. A token with a
 * refresh token is refreshed once stale, so its record is kept until the
 * refresh token itself expires. A token without expiry (an OAuth App token)
 * is kept until it is revoked or replaced.
 */
import type { Kv } from "../backend/types.ts";
import { openToken, sealToken } from "../../at_rest.ts";
import { sha256Hex } from "../../crypto.ts";
import { addAuditEntry, type AuditEntry } from "../telemetry/audit.ts";
import { tokenKey, tokenReverseKey } from "../keys.ts";

/** A user's GitHub token as issued, in plain text. */
export interface IssuedToken {
  userId: string;
  login: string;
  accessToken: string;
  /** When GitHub stops accepting the access token (Unix ms); null: never. */
  expiresAt: number | null;
  refreshToken?: string;
  /** When the refresh token stops working (Unix ms); null: never. */
  refreshTokenExpiresAt?: number | null;
}

/** A stored token, decrypted, with the moments that govern its use. */
export interface UserToken extends IssuedToken {
  /** From this moment (Unix ms) the access token is not used any more: refresh it or sign in again. */
  staleAt: number | null;
  /** The record's versionstamp, for a conditional replacement (refresh). */
  versionstamp: string;
}

/** The KV value: tokens sealed when a key is configured, plus the access token's hash. */
interface TokenRecord extends IssuedToken {
  staleAt: number | null;
  keepUntil: number | null;
  accessTokenSha256: string;
}

/** The shortest time a token record is kept. */
const MIN_RECORD_LIFETIME_MS = 60_000;
const STALE_FRACTION = 0.9;
const SAVE_ATTEMPTS = 5;

/** When an access token issued at `now` turns stale: 90% of its lifetime, at least 60 s. */
export function staleAtFor(expiresAt: number | null, now: number): number | null {
  if (expiresAt === null) return null;
  return now + Math.max(MIN_RECORD_LIFETIME_MS, Math.floor((expiresAt - now) * STALE_FRACTION));
}

/** Until when the record of `token`, stored at `now`, is kept (Unix ms); null: until revoked. */
export function keepUntilFor(token: IssuedToken, now: number): number | null {
  const staleAt = staleAtFor(token.expiresAt, now);
  if (staleAt === null || !token.refreshToken) return staleAt;
  if (token.refreshTokenExpiresAt === null || token.refreshTokenExpiresAt === undefined) {
    return null;
  }
  return Math.max(staleAt, token.refreshTokenExpiresAt);
}

/** Whether a stored access token may still be used at `now`. */
export function isFresh(token: Pick<UserToken, "staleAt">, now: number): boolean {
  return token.staleAt === null || now < token.staleAt;
}

/** Whether a stored token can be refreshed at `now`. */
export function canRefresh(token: IssuedToken, now: number): boolean {
  if (!token.refreshToken) return false;
  const until = token.refreshTokenExpiresAt;
  return until === null || until === undefined || now < until;
}

/** What `saveToken` needs besides the token. */
interface SaveOptions {
  encryptionKey?: string;
  now?: number;
  /** Write only if the record still has this versionstamp (null: only if there is none). */
  ifVersionstamp?: string | null;
  /** An audit entry (about no group) written in the same commit as the token. */
  audit?: AuditEntry;
}

/**
 * Stores a user's token, replacing the previous one and its reverse entry in
 * the same atomic operation. Returns false only when `ifVersionstamp` was given
 * and the record changed meanwhile; otherwise it retries until written.
 */
export async function saveToken(
  kv: Kv,
  token: IssuedToken,
  options: SaveOptions = {},
): Promise<boolean> {
  const now = options.now ?? Date.now();
  const keepUntil = keepUntilFor(token, now);
  const record: TokenRecord = {
    userId: token.userId,
    login: token.login,
    accessToken: await sealToken(token.accessToken, options.encryptionKey),
    expiresAt: token.expiresAt,
    staleAt: staleAtFor(token.expiresAt, now),
    keepUntil,
    accessTokenSha256: await sha256Hex(token.accessToken),
  };
  if (token.refreshToken) {
    record.refreshToken = await sealToken(token.refreshToken, options.encryptionKey);
    record.refreshTokenExpiresAt = token.refreshTokenExpiresAt ?? null;
  }
  const expiry = keepUntil === null ? {} : { expireIn: keepUntil - now };
  for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
    const previous = await kv.get<TokenRecord>(tokenKey(token.userId));
    if (
      options.ifVersionstamp !== undefined && previous.versionstamp !== options.ifVersionstamp
    ) {
      return false;
    }
    const op = kv.atomic()
      .check(previous)
      .set(tokenKey(token.userId), record, expiry)
      .set(tokenReverseKey(record.accessTokenSha256), token.userId, expiry);
    const oldHash = previous.value?.accessTokenSha256;
    if (oldHash && oldHash !== record.accessTokenSha256) op.delete(tokenReverseKey(oldHash));
    if (options.audit) addAuditEntry(op, options.audit);
    if ((await op.commit()).ok) return true;
    if (options.ifVersionstamp !== undefined) return false;
  }
  throw new Error(`Cannot store the token of user ${token.userId}: the record kept changing`);
}

/**
 * The user's stored token, decrypted; null when there is none, when it is past
 * its record lifetime (KV deletes expired records lazily) or when it cannot be
 * decrypted with the configured key.
 */
export async function getToken(
  kv: Kv,
  userId: string,
  options: { encryptionKey?: string; now?: number } = {},
): Promise<UserToken | null> {
  const entry = await kv.get<TokenRecord>(tokenKey(userId));
  const record = entry.value;
  if (!record || !entry.versionstamp) return null;
  if (record.keepUntil !== null && (options.now ?? Date.now()) >= record.keepUntil) return null;
  const accessToken = await openToken(record.accessToken, options.encryptionKey);
  if (accessToken === null) return null;
  const token: UserToken = {
    userId: record.userId,
    login: record.login,
    accessToken,
    expiresAt: record.expiresAt,
    staleAt: record.staleAt,
    versionstamp: entry.versionstamp,
  };
  if (record.refreshToken) {
    const refreshToken = await openToken(record.refreshToken, options.encryptionKey);
    if (refreshToken !== null) {
      token.refreshToken = refreshToken;
      token.refreshTokenExpiresAt = record.refreshTokenExpiresAt ?? null;
    }
  }
  return token;
}

/**
 * Removes the user's token and its reverse entry; false when there was none.
 * The entry `audit` makes (told whether a token was removed), if given, is
 * committed in the same atomic write, also when there was no token.
 */
export async function deleteToken(
  kv: Kv,
  userId: string,
  audit?: (removed: boolean) => AuditEntry,
): Promise<boolean> {
  for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
    const entry = await kv.get<TokenRecord>(tokenKey(userId));
    if (!entry.value && !audit) return false;
    const op = kv.atomic().check(entry);
    if (entry.value) {
      op.delete(tokenKey(userId)).delete(tokenReverseKey(entry.value.accessTokenSha256));
    }
    if (audit) addAuditEntry(op, audit(entry.value !== null));
    if ((await op.commit()).ok) return entry.value !== null;
  }
  throw new Error(`Cannot delete the token of user ${userId}: the record kept changing`);
}

/**
 * The user an access token belongs to, through the reverse index, and whether
 * the token is still fresh (not past `staleAt`); null when the token is
 * unknown, was replaced, or its record has expired.
 */
export async function findTokenOwner(
  kv: Kv,
  accessToken: string,
  now: number = Date.now(),
): Promise<{ userId: string; fresh: boolean } | null> {
  const hash = await sha256Hex(accessToken);
  const userId = (await kv.get<string>(tokenReverseKey(hash))).value;
  if (userId === null) return null;
  const record = (await kv.get<TokenRecord>(tokenKey(userId))).value;
  if (!record || record.accessTokenSha256 !== hash) return null;
  if (record.keepUntil !== null && now >= record.keepUntil) return null;
  return { userId, fresh: isFresh(record, now) };
}
