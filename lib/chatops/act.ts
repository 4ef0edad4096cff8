/**
 * Chat actions on GitHub, run as the chat user's linked GitHub account with its stored token
 * (refreshed when stale). Each answers a line of plain words for the chat: what was done, or
 * why not (not linked, GitHub's refusal with its status, GitHub unreachable). GitHub decides
 * permission: a user can do from the chat exactly what their account may do on GitHub.
 */
import { gitHubAsUser } from "../auth/github_caller.ts";
import type { TokenDeps } from "../auth/user_tokens.ts";
import {
  type ActionOutcome,
  commentOnIssue,
  mergePullRequest,
  reactToIssue,
  reopenIssue,
  setIssueState,
} from "../github/actions.ts";
import type { GitHubCaller } from "../github/client.ts";
import type { Logger } from "../log.ts";
import { type Reaction, REACTION_EMOJI } from "./reactions.ts";
import { type IssueRef, refText } from "../format/issue_ref.ts";

/** How a pull request is merged. */
export type MergeMethod = "merge" | "squash" | "rebase";

/** The merge methods, in the order chats offer them. */
export const MERGE_METHODS: readonly MergeMethod[] = ["merge", "squash", "rebase"];

/** Longest comment a chat may post (GitHub allows 65,536 characters). */
export const MAX_COMMENT_LENGTH = 65_536;

/** One action a chat user asks for. */
export type ChatAction =
  | { kind: "comment"; body: string }
  | { kind: "merge"; method?: MergeMethod }
  | { kind: "close" }
  | { kind: "reopen" }
  | { kind: "react"; reaction: Reaction };

/** The answer for the chat. */
export interface ChatReply {
  ok: boolean;
  text: string;
}

/** What the actions need: KV and settings for the token, and a logger. */
export interface ActDeps extends TokenDeps {
  log: Logger;
}

/** How a chat tells its users to link (`/gh link` on Discord, `/gh login` on Telegram). */
export interface ActOptions {
  linkCommand?: string;
}

const MAX_GITHUB_MESSAGE = 300;

/** The method name in a chat, or null when it is not one. */
export function parseMergeMethod(input: unknown): MergeMethod | null {
  if (typeof input !== "string") return null;
  const text = input.trim().toLowerCase();
  return (MERGE_METHODS as readonly string[]).includes(text) ? text as MergeMethod : null;
}

/** The line a chat answers a user who has not linked a GitHub account. */
export function notLinkedText(linkCommand = "/gh link"): string {
  return `Not linked: run ${linkCommand} first to link your GitHub account.`;
}

function verbOf(action: ChatAction): string {
  switch (action.kind) {
    case "comment":
      return "comment on";
    case "merge":
      return "merge";
    case "close":
      return "close";
    case "reopen":
      return "reopen";
    case "react":
      return "react to";
  }
}

/** GitHub's message, as one bounded line. */
function gitHubMessage(message: string): string {
  const line = message.slice(0, 2 * MAX_GITHUB_MESSAGE).replace(/\s+/g, " ").trim()
    .replace(/[.!]+$/, "");
  return line.length > MAX_GITHUB_MESSAGE ? `${line.slice(0, MAX_GITHUB_MESSAGE - 1)}…` : line;
}

/**
 * GitHub's refusal to `verb` `target` in plain words: its status and what it said. `forbidden`
 * names what a 403 forbids (by default the verb and target).
 */
export function refusalSentence(
  verb: string,
  target: string,
  status: number,
  message: string,
  linkCommand: string,
  forbidden = `${verb} ${target}`,
): string {
  const said = gitHubMessage(message);
  const detail = said ? `: ${said}` : "";
  if (status === 401) {
    return `GitHub no longer accepts your sign-in (401); run ${linkCommand} again.`;
  }
  if (status === 403) return `GitHub says you may not ${forbidden} (403)${detail}.`;
  if (status === 404) {
    return `GitHub cannot find ${target}, or your account may not see it (404).`;
  }
  if (status === 409) return `GitHub says ${target} changed meanwhile (409)${detail}.`;
  if (status >= 500) return `GitHub failed to ${verb} ${target} (${status}); try again later.`;
  return `GitHub refused to ${verb} ${target} (${status})${detail}.`;
}

function refusalText(
  action: ChatAction,
  ref: IssueRef,
  status: number,
  message: string,
  linkCommand: string,
): string {
  const target = refText(ref);
  if (status === 405 && action.kind === "merge") {
    const said = gitHubMessage(message);
    return `GitHub says ${target} cannot be merged (405)${said ? `: ${said}` : ""}.`;
  }
  const forbidden = action.kind === "merge" ? "merge into this repository" : undefined;
  return refusalSentence(verbOf(action), target, status, message, linkCommand, forbidden);
}

function successText(action: ChatAction, ref: IssueRef, result: Record<string, unknown>): string {
  const target = refText(ref);
  switch (action.kind) {
    case "comment":
      return typeof result.url === "string"
        ? `Commented on ${target}: ${result.url}`
        : `Commented on ${target}.`;
    case "merge":
      return `Merged ${target}${action.method ? ` (${action.method})` : ""}.`;
    case "close":
      return `Closed ${target}.`;
    case "reopen":
      return `Reopened ${target}.`;
    case "react":
      return `Reacted ${REACTION_EMOJI.get(action.reaction)} to ${target}.`;
  }
}

function call(
  github: GitHubCaller,
  ref: IssueRef,
  action: ChatAction,
): Promise<ActionOutcome<object>> {
  const repo = { owner: ref.owner, repo: ref.repo };
  switch (action.kind) {
    case "comment":
      return commentOnIssue(github, { ...repo, issueNumber: ref.number, body: action.body });
    case "merge":
      return mergePullRequest(github, {
        ...repo,
        pullNumber: ref.number,
        ...(action.method ? { mergeMethod: action.method } : {}),
      });
    case "close":
      return setIssueState(github, { ...repo, issueNumber: ref.number }, "closed");
    case "reopen":
      return reopenIssue(github, { ...repo, issueNumber: ref.number });
    case "react":
      return reactToIssue(github, { ...repo, issueNumber: ref.number, content: action.reaction });
  }
}

/**
 * Runs `action` on `ref` as the GitHub user `userId` (from the chat user's link; null when the
 * chat user is not linked) and answers the line to show in the chat.
 */
export async function actAsLinkedUser(
  deps: ActDeps,
  userId: string | null,
  ref: IssueRef,
  action: ChatAction,
  options: ActOptions = {},
): Promise<ChatReply> {
  const linkCommand = options.linkCommand ?? "/gh link";
  if (userId === null) return { ok: false, text: notLinkedText(linkCommand) };
  if (action.kind === "comment") {
    const body = action.body.trim();
    if (body.length === 0) return { ok: false, text: "The comment is empty." };
    if (body.length > MAX_COMMENT_LENGTH) {
      return { ok: false, text: `The comment is longer than ${MAX_COMMENT_LENGTH} characters.` };
    }
    action = { kind: "comment", body };
  }
  return await runAsLinkedUser(deps, userId, {
    call: (github) => call(github, ref, action),
    success: (result) => successText(action, ref, result as Record<string, unknown>),
    refusal: (status, message) => refusalText(action, ref, status, message, linkCommand),
  }, options);
}

/** One call on GitHub as a linked user, and the lines that tell its outcome. */
interface LinkedCall<T> {
  call(github: GitHubCaller): Promise<ActionOutcome<T>>;
  success(result: T): string;
  /** Why a call GitHub answered still did nothing, when it did nothing (else null). */
  nothingDone?(result: T): string | null;
  /** GitHub's refusal (a 4xx or 5xx with its message) in plain words. */
  refusal(status: number, message: string): string;
}

/**
 * Makes `request`'s call as the GitHub user `userId` (null: the chat user is not linked) and
 * answers the line for the chat: its success, GitHub's refusal, an expired sign-in, or GitHub
 * unreachable. Never throws.
 */
export async function runAsLinkedUser<T>(
  deps: ActDeps,
  userId: string | null,
  request: LinkedCall<T>,
  options: ActOptions = {},
): Promise<ChatReply> {
  const linkCommand = options.linkCommand ?? "/gh link";
  if (userId === null) return { ok: false, text: notLinkedText(linkCommand) };
  let outcome: ActionOutcome<T>;
  try {
    outcome = await request.call(gitHubAsUser(deps, userId));
  } catch (error) {
    deps.log.warn("chat action failed", { error: String(error) });
    return { ok: false, text: "GitHub could not be reached; try again later." };
  }
  switch (outcome.kind) {
    case "ok": {
      const nothing = request.nothingDone?.(outcome.result) ?? null;
      return nothing === null
        ? { ok: true, text: request.success(outcome.result) }
        : { ok: false, text: nothing };
    }
    case "no_token":
      return {
        ok: false,
        text: `Your GitHub sign-in has expired; run ${linkCommand} again.`,
      };
    case "unreachable":
      deps.log.warn("chat action: GitHub unreachable", { error: outcome.message });
      return { ok: false, text: "GitHub could not be reached; try again later." };
    case "refused":
      if (outcome.status >= 500) {
        deps.log.warn("chat action: GitHub failed", {
          status: outcome.status,
          error: outcome.message,
        });
      }
      return { ok: false, text: request.refusal(outcome.status, outcome.message) };
  }
}
