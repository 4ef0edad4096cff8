/** Revoking a user's stored GitHub token (`DELETE /auth/token/:userId`). */
import type { Kv } from "../store/backend/types.ts";
import { HttpError } from "../fresh/mod.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import { deleteToken } from "../store/auth/tokens.ts";
import type { Principal } from "./principal.ts";

/**
 * Deletes the user's token and its reverse entry, so their bearer calls stop
 * working at once. Only a super admin or the user themself may; others get
 * 403. Audited as `token.revoke` whether or not a token was stored.
 */
export async function revokeUserToken(
  kv: Kv,
  principal: Principal,
  userId: string,
): Promise<{ removed: boolean }> {
  if (!principal.superAdmin && principal.userId !== userId) {
    throw new HttpError(403, "Only a super admin or the user themself may revoke this token");
  }
  const removed = await deleteToken(kv, userId, (removed) =>
    newAuditEntry({
      actor: { userId: principal.userId, login: principal.login },
      action: "token.revoke",
      target: `user:${userId}`,
      detail: { removed },
    }, Date.now()));
  return { removed };
}
