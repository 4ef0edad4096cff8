import { guardConsole } from "../../lib/auth/console_guard.ts";
import { identifyPrincipal } from "../../lib/auth/principal.ts";
import { define } from "../../lib/state.ts";

/**
 * Every console page and console API call: who is asking is resolved once onto
 * `ctx.state.principal`, then the console guard decides.
 */
export const handler = define.middleware([
  identifyPrincipal,
  async (ctx) => guardConsole(ctx) ?? await ctx.next(),
]);
