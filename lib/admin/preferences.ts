/**
 * `GET` and `PUT /admin/api/me/preferences`: the signed-in person's own settings. Anyone
 * signed in reads and sets their own, and only their own; each change is audited as
 * `preferences.update`.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import {
  getUserPreferences,
  saveUserPreferences,
  type UserPreferences,
} from "../store/auth/user_preferences.ts";
import { actorOf } from "./guards.ts";

/** The caller's settings. */
export function readPreferences(kv: Kv, principal: Principal): Promise<UserPreferences> {
  return getUserPreferences(kv, principal.userId);
}

/** Replaces the caller's settings; answers them as stored. */
export async function writePreferences(
  kv: Kv,
  principal: Principal,
  preferences: UserPreferences,
): Promise<UserPreferences> {
  const stored: UserPreferences = { skipOwnActions: preferences.skipOwnActions };
  const audit = newAuditEntry({
    actor: actorOf(principal),
    action: "preferences.update",
    target: principal.userId,
    detail: { ...stored },
  }, Date.now());
  await saveUserPreferences(kv, principal.userId, stored, audit);
  return stored;
}
