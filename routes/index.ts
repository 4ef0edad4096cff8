import { define } from "../lib/state.ts";

/** The site's root leads to the console. */
export const handler = define.handlers({
  GET(ctx) {
    return ctx.redirect("/admin");
  },
});
