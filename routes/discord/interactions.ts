import { handleInteraction } from "../../lib/chatops/discord/handle.ts";
import { define } from "../../lib/state.ts";

/** Discord's interactions endpoint: signed commands, button presses and forms. */
export const handler = define.handlers({
  POST: (ctx) => handleInteraction(ctx.state, ctx.req),
});
