import { guardConsole } from "../../lib/auth/console_guard.ts";
import { define } from "../../lib/state.ts";

/** Every console page and console API call passes the console guard first. */
export const handler = define.middleware(async (ctx) => {
  const refusal = await guardConsole(ctx);
  return refusal ?? await ctx.next();
});
