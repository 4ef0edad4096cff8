/** Ending a console session: the KV record goes, an audit entry records it. */
import type { Kv } from "../store/backend/types.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import { deleteSession, getSession } from "../store/auth/sessions.ts";
import { sessionIdOf } from "./session_cookie.ts";

/** Deletes the request's session, if any, and audits the sign-out; false when there was none. */
export async function signOut(kv: Kv, req: Request): Promise<boolean> {
  const sessionId = sessionIdOf(req);
  if (!sessionId) return false;
  const session = await getSession(kv, sessionId);
  if (!session) return false;
  const audit = newAuditEntry({
    actor: { userId: session.userId, login: session.login },
    action: "session.logout",
  }, Date.now());
  await deleteSession(kv, sessionId, audit);
  return true;
}

/**
 * Whether a GET sign-out may end the session at once: the browser says it comes from this very
 * origin (`same-origin`) or from the user (`none`: typed in, a bookmark), or it sends no
 * `Sec-Fetch-Site` at all (not a current browser). Any other site (`cross-site`, also a sibling
 * `same-site` origin) only gets the confirmation page, so no other site can end a session.
 */
export function mayEndSessionOnGet(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}
