/**
 * OAuth `state` values are signed, not stored (`lib/auth/oauth_state.ts`), so starting a sign-in
 * writes nothing. What the store keeps is the id of each state a callback has used, until the
 * state expires: marking it is one atomic create-if-absent, so a state works at most once even
 * when two callbacks race, and a replay finds the mark.
 */
import type { Kv } from "../backend/types.ts";
import { usedOAuthStateKey } from "../keys.ts";

/** How long a state may wait for its callback. */
export const OAUTH_STATE_LIFETIME_MS = 10 * 60 * 1000;

/** The flow a sign-in belongs to, and what it needs to finish. */
export type OAuthFlow =
  | { kind: "browser"; redirectTo: string }
  | { kind: "json"; redirectTo: string }
  | { kind: "install"; installationId: number; setupAction?: string }
  | {
    /** A chat user's pending link request (`lib/store/auth/link_requests.ts`). */
    kind: "discord_link" | "telegram_link";
    chatUserId: string;
    requestId: string;
  };

/**
 * Marks the state `stateId` used until `expiresAt`; true for the first callback to use it,
 * false when it was used already.
 */
export async function markOAuthStateUsed(
  kv: Kv,
  stateId: string,
  expiresAt: number,
  now: number = Date.now(),
): Promise<boolean> {
  const key = usedOAuthStateKey(stateId);
  const result = await kv.atomic()
    .check({ key, versionstamp: null })
    .set(key, expiresAt, { expireIn: Math.max(1, expiresAt - now) })
    .commit();
  return result.ok;
}
