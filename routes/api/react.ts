import { bearerUserOf } from "../../lib/auth/bearer.ts";
import { reactSchema, reactToIssue } from "../../lib/github/actions.ts";
import { handleAction } from "../../lib/actions/action_api.ts";
import { define } from "../../lib/state.ts";

/** Adds a reaction to an issue or pull request as the bearer's GitHub user. */
export const handler = define.handlers({
  POST: (ctx) =>
    handleAction(ctx.state, bearerUserOf(ctx), ctx.req, {
      schema: reactSchema,
      run: reactToIssue,
      status: 200,
    }),
});
