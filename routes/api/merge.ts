import { bearerUserOf } from "../../lib/auth/bearer.ts";
import { mergePullRequest, mergeSchema } from "../../lib/github/actions.ts";
import { handleAction } from "../../lib/actions/action_api.ts";
import { define } from "../../lib/state.ts";

/** Merges a pull request as the bearer's GitHub user. */
export const handler = define.handlers({
  POST: (ctx) =>
    handleAction(ctx.state, bearerUserOf(ctx), ctx.req, {
      schema: mergeSchema,
      run: mergePullRequest,
      status: 200,
    }),
});
