import { richHeaderResponse } from "../../lib/chatops/telegram/rich_header.ts";
import { define } from "../../lib/state.ts";

/** The Open Graph page of a Telegram link-preview card the product made (no sign-in). */
export const handler = define.handlers({
  GET: (ctx) => richHeaderResponse(ctx.state.kv, ctx.state.config, ctx.url.searchParams),
});
