import { bearerUserOf } from "../../lib/auth/bearer.ts";
import { commentOnIssue, commentSchema } from "../../lib/github/actions.ts";
import { handleAction } from "../../lib/actions/action_api.ts";
import { define } from "../../lib/state.ts";

/** Comments on an issue or pull request as the bearer's GitHub user. */
export const handler = define.handlers({
  POST: (ctx) =>
    handleAction(ctx.state, bearerUserOf(ctx), ctx.req, {
      schema: commentSchema,
      run: commentOnIssue,
      status: 201,
    }),
});
