/**
 * A person's own settings, by GitHub user id: for now whether events they caused themselves are
 * left out of their private chats ("not my own", see docs/delivery.md). A write commits its
 * audit entry in the same atomic write.
 */
import type { Kv } from "../backend/types.ts";
import { addAuditEntry, type AuditEntry } from "../telemetry/audit.ts";
import { userPreferencesKey } from "../keys.ts";

/** A person's settings. */
export interface UserPreferences {
  /** Events this person caused are not sent to their linked private chats. */
  skipOwnActions: boolean;
}

/** The settings of someone who never chose any. */
const DEFAULT_PREFERENCES: UserPreferences = Object.freeze({ skipOwnActions: false });

/** The person's settings (the defaults when they never saved any). */
export async function getUserPreferences(kv: Kv, userId: string): Promise<UserPreferences> {
  const stored = (await kv.get<UserPreferences>(userPreferencesKey(userId))).value;
  return { ...DEFAULT_PREFERENCES, ...stored };
}

/** Saves the person's settings with the audit entry of the change. */
export async function saveUserPreferences(
  kv: Kv,
  userId: string,
  preferences: UserPreferences,
  audit: AuditEntry,
): Promise<void> {
  const op = kv.atomic().set(userPreferencesKey(userId), preferences);
  addAuditEntry(op, audit);
  const result = await op.commit();
  if (!result.ok) throw new Error(`Cannot save the preferences of user ${userId}`);
}
