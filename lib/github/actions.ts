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

function mapOk<A, T>(outcome: GitHubOutcome<A>, map: (body: A) => T): ActionOutcome<T> {
  return outcome.kind === "ok" ? { kind: "ok", result: map(outcome.body) } : outcome;
}

/** Comments on an issue or pull request; answers the comment's id and address. */
export async function commentOnIssue(
  github: GitHubCaller,
  input: z.infer<typeof commentSchema>,
): Promise<ActionOutcome<{ id: number; url: string }>> {
  const outcome = await github<{ id: number; html_url: string }>({
    method: "POST",
    path: repoPath(input.owner, input.repo, "issues", input.issueNumber, "comments"),
    body: { body: input.body },
  });
  return mapOk(outcome, (body) => ({ id: body.id, url: body.html_url }));
}

/** Merges a pull request (only at `sha` when given); answers the merge commit's sha. */
export async function mergePullRequest(
  github: GitHubCaller,
  input: z.infer<typeof mergeSchema>,
): Promise<ActionOutcome<{ sha: string }>> {
  const body: Record<string, string> = {};
  if (input.mergeMethod) body.merge_method = input.mergeMethod;
  if (input.sha) body.sha = input.sha;
  const outcome = await github<{ sha: string }>({
    method: "PUT",
    path: repoPath(input.owner, input.repo, "pulls", input.pullNumber, "merge"),
    body,
  });
  return mapOk(outcome, (answer) => ({ sha: answer.sha }));
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
  return mapOk(outcome, () => ({}));
}

/** Adds a reaction to an issue or pull request; answers the reaction's id. */
export async function reactToIssue(
  github: GitHubCaller,
  input: z.infer<typeof reactSchema>,
): Promise<ActionOutcome<{ id: number }>> {
  const outcome = await github<{ id: number }>({
    method: "POST",
    path: repoPath(input.owner, input.repo, "issues", input.issueNumber, "reactions"),
    body: { content: input.content },
  });
  return mapOk(outcome, (body) => ({ id: body.id }));
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
  return mapOk(outcome, () => ({}));
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
  const outcome = await github<{ number: number; html_url: string }>({
    method: "POST",
    path: repoPath(input.owner, input.repo, "issues"),
    body: input.body ? { title: input.title, body: input.body } : { title: input.title },
  });
  return mapOk(outcome, (body) => ({ number: body.number, url: body.html_url }));
}
