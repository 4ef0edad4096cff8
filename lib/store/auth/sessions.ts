/**
 * Admin sessions: a random id in the `switchyard_session` cookie,
 * a record in KV under the id's sha256 (so the store never holds a usable
 * cookie value), kept as long as the cookie: 7 days.
 */
import type { Kv } from "../backend/types.ts";
import { randomToken, sha256Hex } from "../../crypto.ts";
import { addAuditEntry, type AuditEntry } from "../telemetry/audit.ts";
import { sessionKey } from "../keys.ts";

/** How long a session lives. */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** A signed-in person. */
interface Session {
  userId: string;
  login: string;
  /** Per-session token that forms must send back (cross-site request protection). */
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * Creates a session for the user; returns the cookie value and the record.
 * `audit`, if given, is committed in the same atomic write.
 */
export async function createSession(
  kv: Kv,
  user: { userId: string; login: string },
  now: number = Date.now(),
  audit?: AuditEntry,
): Promise<{ sessionId: string; session: Session }> {
  const sessionId = randomToken(32);
  const session: Session = {
    userId: user.userId,
    login: user.login,
    csrfToken: randomToken(32),
    createdAt: now,
    expiresAt: now + SESSION_LIFETIME_MS,
  };
  const op = kv.atomic().set(sessionKey(await sha256Hex(sessionId)), session, {
    expireIn: SESSION_LIFETIME_MS,
  });
  if (audit) addAuditEntry(op, audit);
  if (!(await op.commit()).ok) throw new Error(`Cannot store the session of user ${user.userId}`);
  return { sessionId, session };
}

/** The session for a cookie value, or null when unknown or past its lifetime. */
export async function getSession(
  kv: Kv,
  sessionId: string,
  now: number = Date.now(),
): Promise<Session | null> {
  const session = (await kv.get<Session>(sessionKey(await sha256Hex(sessionId)))).value;
  return session && now < session.expiresAt ? session : null;
}

/**
 * Deletes the session for a cookie value (nothing happens when there is none).
 * `audit`, if given, is committed in the same atomic write.
 */
export async function deleteSession(
  kv: Kv,
  sessionId: string,
  audit?: AuditEntry,
): Promise<void> {
  const op = kv.atomic().delete(sessionKey(await sha256Hex(sessionId)));
  if (audit) addAuditEntry(op, audit);
  if (!(await op.commit()).ok) throw new Error("Cannot end the session");
}
