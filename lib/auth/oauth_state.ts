/**
 * OAuth `state` values: signed (`signed_token.ts`), valid for 10 minutes, bound to the flow that
 * started the sign-in and, for flows a browser must finish, to that browser (the sha256 of its
 * binding cookie). Issuing one writes nothing to the store, so anonymous sign-in starts cannot
 * grow it; the callback checks the signature, the expiry and the binding, then marks the state's
 * random id used (one atomic write, kept until the state expires), so a state works once.
 */
import type { Kv } from "../store/backend/types.ts";
import { randomToken } from "../crypto.ts";
import {
  markOAuthStateUsed,
  OAUTH_STATE_LIFETIME_MS,
  type OAuthFlow,
} from "../store/auth/oauth_states.ts";
import { signToken, verifyToken } from "./signed_token.ts";

/** Why a state could not be used. */
export type StateRefusal = "unknown" | "expired" | "other_browser";

interface StateData {
  /** Random id, marked used by the callback. */
  i: string;
  f: OAuthFlow;
  /** sha256 of the browser binding cookie, for flows a browser must finish. */
  b?: string;
}

/** A new state for the flow (bound to a browser when `browserHash` is given). */
export function issueOAuthState(
  kv: Kv,
  flow: OAuthFlow,
  browserHash?: string,
  now: number = Date.now(),
): Promise<string> {
  const data: StateData = {
    i: randomToken(16),
    f: flow,
    ...(browserHash ? { b: browserHash } : {}),
  };
  return signToken(kv, "oauth_state", data, now + OAUTH_STATE_LIFETIME_MS);
}

function isStateData(value: unknown): value is StateData {
  const data = value as StateData | null;
  return typeof data?.i === "string" && typeof data.f?.kind === "string";
}

/**
 * Uses a state up and answers its flow. `unknown` covers a state never issued (or forged) and
 * one already used; `expired` a state older than 10 minutes; `other_browser` a bound state
 * presented without its browser's binding (`browserHash`), which stays usable by that browser.
 */
export async function consumeOAuthState(
  kv: Kv,
  state: string,
  browserHash: string | null,
  now: number = Date.now(),
): Promise<{ flow: OAuthFlow } | { refused: StateRefusal }> {
  const verified = await verifyToken(kv, "oauth_state", state, now);
  if ("refused" in verified) {
    return { refused: verified.refused === "expired" ? "expired" : "unknown" };
  }
  if (!isStateData(verified.data)) return { refused: "unknown" };
  const { i: id, f: flow, b: bound } = verified.data;
  if (bound !== undefined && bound !== browserHash) return { refused: "other_browser" };
  if (!(await markOAuthStateUsed(kv, id, verified.expiresAt, now))) return { refused: "unknown" };
  return { flow };
}
