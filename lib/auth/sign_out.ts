/** Ending a console session: the KV record goes, an audit entry records it. */
import { newAuditEntry } from "../store/audit.ts";
import { deleteSession, getSession } from "../store/sessions.ts";
import { sessionIdOf } from "./session_cookie.ts";

/** Deletes the request's session, if any, and audits the sign-out; false when there was none. */
export async function signOut(kv: Deno.Kv, req: Request): Promise<boolean> {
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
