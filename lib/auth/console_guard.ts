/**
 * The single access check in front of every console page. Sign-in and roles
 * plug in here; until they exist the console holds only stateless tools, so
 * every request passes.
 */
import type { Context } from "../fresh/types.ts";
import type { State } from "../state.ts";

/** Throws an HttpError (or answers a redirect) when the request may not see the console. */
export function guardConsole(_ctx: Context<State>): Promise<Response | null> {
  return Promise.resolve(null);
}
