/**
 * OAuth `state` values: random, single use, valid for 10
 * minutes, and bound to the flow that started the sign-in and, for sign-ins a
 * browser starts, to that browser (the sha256 of its binding cookie). Consuming
 * one is a get followed by an atomic delete that checks the entry, so a state
 * is used at most once even when two callbacks race; a state presented by
 * another browser is refused and left in place.
 */
import { randomToken } from "../crypto.ts";
import { oauthStateKey } from "./keys.ts";

/** How long a state may wait for its callback. */
export const OAUTH_STATE_LIFETIME_MS = 10 * 60 * 1000;

/** The flow a sign-in belongs to, and what it needs to finish. */
export type OAuthFlow =
  | { kind: "browser"; redirectTo: string }
  | { kind: "json"; redirectTo: string }
  | { kind: "install"; installationId: number; setupAction?: string }
  | {
    kind: "discord_link";
    discordUserId: string;
    /** The Discord user's name, shown on the page that asks to confirm the link. */
    discordName?: string;
    /** The `/gh link` interaction, to confirm the link in Discord (valid 15 minutes). */
    interactionToken?: string;
  }
  | {
    kind: "telegram_link";
    telegramUserId: string;
    telegramChatId: string;
    /** The Telegram user's name, shown on the page that asks to confirm the link. */
    telegramName?: string;
  };

interface StoredState {
  flow: OAuthFlow;
  createdAt: number;
  /** sha256 of the browser binding cookie, for flows a browser started. */
  browserHash?: string;
}

/** Why a state could not be used. */
export type StateRefusal = "unknown" | "expired" | "other_browser";

/** Stores a new state for the flow (bound to a browser when `browserHash` is given) and returns it. */
export async function createOAuthState(
  kv: Deno.Kv,
  flow: OAuthFlow,
  now: number = Date.now(),
  browserHash?: string,
): Promise<string> {
  const state = randomToken(24);
  const value: StoredState = { flow, createdAt: now, ...(browserHash ? { browserHash } : {}) };
  await kv.set(oauthStateKey(state), value, { expireIn: OAUTH_STATE_LIFETIME_MS });
  return state;
}

/**
 * Uses a state up: answers its flow and deletes it. `unknown` covers a state
 * never issued, already used, or lost to a concurrent callback; `expired` a
 * state older than 10 minutes that KV has not removed yet; `other_browser` a
 * browser-bound state whose binding `browserHash` does not match (the state
 * stays usable by the browser that started it).
 */
export async function consumeOAuthState(
  kv: Deno.Kv,
  state: string,
  browserHash: string | null,
  now: number = Date.now(),
): Promise<{ flow: OAuthFlow } | { refused: StateRefusal }> {
  const entry = await kv.get<StoredState>(oauthStateKey(state));
  if (!entry.value) return { refused: "unknown" };
  const bound = entry.value.browserHash;
  if (bound !== undefined && bound !== browserHash) return { refused: "other_browser" };
  const committed = await kv.atomic().check(entry).delete(oauthStateKey(state)).commit();
  if (!committed.ok) return { refused: "unknown" };
  if (now - entry.value.createdAt >= OAUTH_STATE_LIFETIME_MS) return { refused: "expired" };
  return { flow: entry.value.flow };
}

/**
 * The flow of a state that is still usable, without using it up (a page that asks the user to
 * confirm before going to GitHub reads it); null when unknown, used or expired.
 */
export async function peekOAuthState(
  kv: Deno.Kv,
  state: string,
  now: number = Date.now(),
): Promise<OAuthFlow | null> {
  const entry = await kv.get<StoredState>(oauthStateKey(state));
  if (!entry.value || now - entry.value.createdAt >= OAUTH_STATE_LIFETIME_MS) return null;
  return entry.value.flow;
}
