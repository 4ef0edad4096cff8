/**
 * The actions a user takes on GitHub through Switchyard: comment on an issue or pull request,
 * merge, close, reopen, react, open an issue. The request
 * schemas validate the bearer API's bodies; chat commands call the same
 * functions with a caller for a linked user.
 */
import { z } from "zod";
import { OWNER_PATTERN, REPO_PATTERN } from "../format/github_names.ts";
import { type GitHubCaller, type GitHubOutcome, repoPath } from "./client.ts";

const owner = z.string().trim().regex(
  OWNER_PATTERN,
  "must be a GitHub account name (1-39 letters, digits or -, not starting with -)",
);
const repo = z.string().trim().regex(
  REPO_PATTERN,
  "must be a repository name (1-100 letters, digits, ., _ or -, not . or ..)",
);
const number = z.number().int().positive();

/** `POST /api/comment` body. */
export const commentSchema = z.object({
  owner,
  repo,
  issueNumber: number,
  body: z.string().trim().min(1).max(65_536),
});

/** `POST /api/merge` body. */
export const mergeSchema = z.object({
  owner,
  repo,
  pullNumber: number,
  mergeMethod: z.enum(["merge", "squash", "rebase"]).optional(),
  sha: z.string().regex(/^[0-9a-f]{40}$/i, "must be a 40-character commit sha").optional(),
});

/** `POST /api/close` body. */
export const closeSchema = z.object({ owner, repo, pullNumber: number });

/** GitHub's reaction names. */
export const REACTIONS = [
  "+1",
  "-1",
  "laugh",
  "confused",
  "heart",
  "hooray",
  "rocket",
  "eyes",
] as const;

/** `POST /api/react` body. */
export const reactSchema = z.object({
  owner,
  repo,
  issueNumber: number,
  content: z.enum(REACTIONS),
});

/** An action's outcome: the success answer, or why it failed. */
export type ActionOutcome<T> =
  | { kind: "ok"; result: T }
  | Exclude<GitHubOutcome<unknown>, { kind: "ok" }>;

/**
 * The action's answer read from GitHub's success with `read`; a success whose body lacks what
 * the answer needs (null when `read` finds it missing) counts as GitHub failing (502).
 */
function mapOk<T>(
  outcome: GitHubOutcome<unknown>,
  read: (body: Record<string, unknown>) => T | null,
): ActionOutcome<T> {
  if (outcome.kind !== "ok") return outcome;
  const body = outcome.body;
  const result = typeof body === "object" && body !== null && !Array.isArray(body)
    ? read(body as Record<string, unknown>)
    : null;
  return result === null
    ? {
      kind: "refused",
      status: 502,
      message: "GitHub's answer lacks what the action returns",
      body,
      headers: outcome.headers,
    }
    : { kind: "ok", result };
}

/** A whole number GitHub answered (an id, an issue number), or null. */
function integerOf(value: unknown): number | null {
  return Number.isSafeInteger(value) ? value as number : null;
}

/** An address GitHub answered, or null. */
function urlOf(value: unknown): string | null {
  return typeof value === "string" && /^https?:\/\//.test(value) ? value : null;
}

/** Both parts of an answer combined, or null when either is missing. */
function both<A, B, T>(a: A | null, b: B | null, combine: (a: A, b: B) => T): T | null {
  return a === null || b === null ? null : combine(a, b);
}

/** The outcome of an action that answers nothing of GitHub's body. */
function done(outcome: GitHubOutcome<unknown>): ActionOutcome<Record<never, never>> {
  return outcome.kind === "ok" ? { kind: "ok", result: {} } : outcome;
}

/** Comments on an issue or pull request; answers the comment's id and address. */
export async function commentOnIssue(
  github: GitHubCaller,
  input: z.infer<typeof commentSchema>,
): Promise<ActionOutcome<{ id: number; url: string }>> {
  const outcome = await github({
    method: "POST",
    path: repoPath(input.owner, input.repo, "issues", input.issueNumber, "comments"),
    body: { body: input.body },
  });
  return mapOk(
    outcome,
    (body) => both(integerOf(body.id), urlOf(body.html_url), (id, url) => ({ id, url })),
  );
}

/** Merges a pull request (only at `sha` when given); answers the merge commit's sha. */
export async function mergePullRequest(
  github: GitHubCaller,
  input: z.infer<typeof mergeSchema>,
): Promise<ActionOutcome<{ sha: string }>> {
  const body: Record<string, string> = {};
  if (input.mergeMethod) body.merge_method = input.mergeMethod;
  if (input.sha) body.sha = input.sha;
  const outcome = await github({
    method: "PUT",
    path: repoPath(input.owner, input.repo, "pulls", input.pullNumber, "merge"),
    body,
  });
  return mapOk(
    outcome,
    (answer) =>
      typeof answer.sha === "string" && /^[0-9a-f]{40,64}$/i.test(answer.sha)
        ? { sha: answer.sha }
        : null,
  );
}

/** Closes a pull request without merging it. */
export async function closePullRequest(
  github: GitHubCaller,
  input: z.infer<typeof closeSchema>,
): Promise<ActionOutcome<Record<never, never>>> {
  const outcome = await github({
    method: "PATCH",
    path: repoPath(input.owner, input.repo, "pulls", input.pullNumber),
    body: { state: "closed" },
  });
  return done(outcome);
}

/** Adds a reaction to an issue or pull request; answers the reaction's id. */
export async function reactToIssue(
  github: GitHubCaller,
  input: z.infer<typeof reactSchema>,
): Promise<ActionOutcome<{ id: number }>> {
  const outcome = await github({
    method: "POST",
    path: repoPath(input.owner, input.repo, "issues", input.issueNumber, "reactions"),
    body: { content: input.content },
  });
  return mapOk(outcome, (body) => {
    const id = integerOf(body.id);
    return id === null ? null : { id };
  });
}

/** An issue or pull request to close or reopen. */
const issueStateSchema = z.object({ owner, repo, issueNumber: number });

/**
 * Closes or reopens an issue or pull request through the issues endpoint, which GitHub serves
 * for both (a pull request is closed without merging).
 */
export async function setIssueState(
  github: GitHubCaller,
  input: z.infer<typeof issueStateSchema>,
  state: "open" | "closed",
): Promise<ActionOutcome<Record<never, never>>> {
  const outcome = await github({
    method: "PATCH",
    path: repoPath(input.owner, input.repo, "issues", input.issueNumber),
    body: { state },
  });
  return done(outcome);
}

/** Reopens a closed issue or pull request. */
export function reopenIssue(
  github: GitHubCaller,
  input: z.infer<typeof issueStateSchema>,
): Promise<ActionOutcome<Record<never, never>>> {
  return setIssueState(github, input, "open");
}

/** Longest issue title accepted (GitHub cuts titles at 256 characters). */
export const MAX_ISSUE_TITLE = 256;

/** An issue to open. */
const createIssueSchema = z.object({
  owner,
  repo,
  title: z.string().trim().min(1).max(MAX_ISSUE_TITLE),
  body: z.string().max(65_536),
});

/** Opens an issue; answers its number and address. */
export async function createIssue(
  github: GitHubCaller,
  input: z.infer<typeof createIssueSchema>,
): Promise<ActionOutcome<{ number: number; url: string }>> {
  const outcome = await github({
    method: "POST",
    path: repoPath(input.owner, input.repo, "issues"),
    body: input.body ? { title: input.title, body: input.body } : { title: input.title },
  });
  return mapOk(
    outcome,
    (body) =>
      both(integerOf(body.number), urlOf(body.html_url), (number, url) => ({ number, url })),
  );
}
