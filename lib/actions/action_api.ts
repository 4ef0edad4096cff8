/**
 * The bearer action API's request and answer handling, shared by the four
 * routes: for the caller `routes/api/_middleware.ts` authenticated, read the JSON body (at most 256 KiB, within
 * 10 s: 413 / 408 / 400 `Invalid JSON`) and validate it, act as the caller,
 * and turn GitHub's answer into ours. GitHub's refusals keep their status and
 * message (404, 405, 409, 422, and other 4xx such as 403); a 401 from GitHub
 * answers 401 (a bearer's token is never refreshed on its behalf:
 * `gitHubAsBearer`); GitHub failing (5xx) or unreachable answers 502 with a
 * fixed text: GitHub's own text or the network error goes to the log.
 */
import type { z } from "zod";
import { gitHubAsBearer } from "../auth/github_caller.ts";
import type { TokenDeps } from "../auth/user_tokens.ts";
import { HttpError, isErrorStatus } from "../fresh/mod.ts";
import type { ActionOutcome } from "../github/actions.ts";
import type { GitHubCaller } from "../github/client.ts";
import type { Logger } from "../log.ts";
import { ACTION_BODY_BYTES } from "../limits.ts";
import { readJsonBody } from "../http_body.ts";

/** One action: its body schema, what it does, and its success status. */
interface ActionSpec<S extends z.ZodType, T> {
  schema: S;
  run(github: GitHubCaller, input: z.infer<S>): Promise<ActionOutcome<T>>;
  status: number;
}

/** Reads and validates a JSON body; 400 names the first failing field. */
async function parseJsonBody<S extends z.ZodType>(
  req: Request,
  schema: S,
): Promise<z.infer<S>> {
  const body = await readJsonBody(req, { maxBytes: ACTION_BODY_BYTES });
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".");
    throw new HttpError(
      400,
      field ? `Invalid ${field}: ${issue.message}` : `Invalid body: ${issue.message}`,
    );
  }
  return parsed.data;
}

/** The answers when GitHub cannot serve an action (502). */
const GITHUB_FAILURES = {
  unreachable: "GitHub is unreachable; try again later",
  failed: "GitHub failed to carry out the action; try again later",
} as const;

/** Turns an action's outcome into the API answer (see the module comment). */
function actionResponse<T extends object>(
  outcome: ActionOutcome<T>,
  status: number,
  log: Logger,
): Response {
  switch (outcome.kind) {
    case "ok":
      return Response.json({ ok: true, ...outcome.result }, { status });
    case "no_token":
      throw new HttpError(401, "Your stored GitHub token has expired; sign in again");
    case "unreachable":
      log.warn("action API: GitHub unreachable", { error: outcome.message });
      throw new HttpError(502, GITHUB_FAILURES.unreachable);
    case "refused":
      if (outcome.status === 401) {
        throw new HttpError(401, `GitHub no longer accepts your token: ${outcome.message}`);
      }
      if (outcome.status < 500 && isErrorStatus(outcome.status)) {
        throw new HttpError(outcome.status, outcome.message);
      }
      log.warn("action API: GitHub failed", { status: outcome.status, error: outcome.message });
      throw new HttpError(502, GITHUB_FAILURES.failed);
  }
}

/** Answers one action request of the user `userId`: body, the call as the caller, the answer. */
export async function handleAction<S extends z.ZodType, T extends object>(
  deps: TokenDeps & { log: Logger },
  userId: string,
  req: Request,
  spec: ActionSpec<S, T>,
): Promise<Response> {
  const input = await parseJsonBody(req, spec.schema);
  return actionResponse(await spec.run(gitHubAsBearer(deps, userId), input), spec.status, deps.log);
}
