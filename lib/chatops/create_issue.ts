/**
 * Opening an issue from a chat (`/gh issue <owner/repo> <title>`), as the chat user's linked
 * GitHub account. The repository is checked against GitHub's naming rules and the title and
 * body are bounded before anything reaches GitHub; the answer is the new issue's address, or
 * GitHub's refusal in plain words.
 */
import { createIssue, MAX_ISSUE_TITLE } from "../github/actions.ts";
import { OWNER_PATTERN, REPO_PATTERN } from "../format/github_names.ts";
import {
  type ActDeps,
  type ActOptions,
  type ChatReply,
  MAX_COMMENT_LENGTH,
  refusalSentence,
  runAsLinkedUser,
} from "./act.ts";

/** A repository named in a chat. */
export interface RepositoryRef {
  owner: string;
  repo: string;
}

/** Longest `owner/repo` read (39 + 1 + 100). */
export const MAX_REPOSITORY_TEXT = 140;

const USAGE = "Name the repository as owner/repo.";

/** The repository `owner/repo` names, or the sentence saying why the text is not one. */
export function parseRepository(
  input: unknown,
): { ok: true; repository: RepositoryRef } | { ok: false; error: string } {
  const text = typeof input === "string" ? input.trim() : "";
  if (text.length === 0 || text.length > MAX_REPOSITORY_TEXT) return { ok: false, error: USAGE };
  const [owner, name = "", ...rest] = text.split("/");
  const repo = name.endsWith(".git") ? name.slice(0, -4) : name;
  if (rest.length > 0 || !OWNER_PATTERN.test(owner) || !REPO_PATTERN.test(repo)) {
    return { ok: false, error: USAGE };
  }
  return { ok: true, repository: { owner, repo } };
}

/** What is wrong with an issue's title or body, or null when both fit. */
export function issueInputProblem(title: string, body: string): string | null {
  if (title.trim().length === 0) return "Give the issue a title.";
  if (title.trim().length > MAX_ISSUE_TITLE) {
    return `The title is longer than ${MAX_ISSUE_TITLE} characters.`;
  }
  if (body.length > MAX_COMMENT_LENGTH) {
    return `The body is longer than ${MAX_COMMENT_LENGTH} characters.`;
  }
  return null;
}

/**
 * Opens an issue in `repository` as the GitHub user `userId` (null: the chat user is not
 * linked) and answers the line for the chat: the new issue and its address, or why not.
 */
export async function createIssueAsLinkedUser(
  deps: ActDeps,
  userId: string | null,
  repository: RepositoryRef,
  issue: { title: string; body: string },
  options: ActOptions = {},
): Promise<ChatReply> {
  const problem = issueInputProblem(issue.title, issue.body);
  if (problem !== null) return { ok: false, text: problem };
  const name = `${repository.owner}/${repository.repo}`;
  return await runAsLinkedUser(deps, userId, {
    call: (github) =>
      createIssue(github, { ...repository, title: issue.title.trim(), body: issue.body }),
    success: (created) => `Opened ${name}#${created.number}: ${created.url}`,
    refusal: (status, message) =>
      refusalSentence(
        "open an issue in",
        name,
        status,
        message,
        options.linkCommand ?? "/gh link",
      ),
  }, options);
}
