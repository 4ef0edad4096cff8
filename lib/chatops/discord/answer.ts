/**
 * What an interaction handler gives back: the immediate response, and optionally the work that
 * runs after it (calling GitHub, then editing the deferred answer), so the response always
 * reaches Discord within its 3 seconds.
 */
import type { APIInteractionResponse } from "discord-api-types/v10";
import type { ActDeps } from "../act.ts";

/** The services the Discord side needs: KV, settings and a logger (a request's state fits). */
export type DiscordDeps = ActDeps;

/** The response, and the work to run once it is sent. */
export interface InteractionAnswer {
  response: APIInteractionResponse;
  later?: () => Promise<void>;
}

/** An answer with nothing to do afterwards. */
export function now(response: APIInteractionResponse): InteractionAnswer {
  return { response };
}
