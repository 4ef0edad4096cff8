import { richHeaderResponse } from "../../lib/chatops/telegram/rich_header.ts";
import { define } from "../../lib/state.ts";

/** The Open Graph page for a Telegram notification's link-preview card (no sign-in). */
export const handler = define.handlers({
  GET: (ctx) => richHeaderResponse(ctx.state.config, ctx.url.searchParams),
});
