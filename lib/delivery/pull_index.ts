/**
 * Feeds the index of open pull requests (lib/store/delivery/open_pulls.ts) from the GitHub events a
 * group receives: `pull_request` (opened, reopened, edited, ready_for_review,
 * converted_to_draft, review_requested, review_request_removed, synchronize, labeled,
 * unlabeled, closed: merged or not) and `pull_request_review` (submitted, dismissed). The
 * payload's pull request is taken as it is (its requested reviewers and teams are GitHub's
 * current ones), with the request just added or removed applied on top. A review's payload
 * shows the requests after the review (GitHub drops the reviewer's own request, and a team's
 * when a member of it reviewed); the reviewer's request is removed on top, and a request list
 * the payload does not carry is kept from the entry. Every value from the payload is checked and
 * cut to size; a payload that is not a pull request changes nothing. A closed or merged one
 * leaves the index, and a marker keeps older events from bringing it back.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Logger } from "../log.ts";
import { applyPullChange, type OpenPull, type PullChange } from "../store/delivery/open_pulls.ts";
import { normalizeGithubLogin } from "../store/auth/links.ts";
import type { ForgeEvent } from "../types.ts";
import { record } from "../format/read.ts";
import { applyToEachGroup } from "./index_groups.ts";

const TITLE_CHARS = 200;
const URL_CHARS = 500;
const REPOSITORY = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;
const TEAM = /^[A-Za-z0-9_.-]{1,100}$/;
const MAX_REVIEWERS = 20;
const MAX_TEAMS = 10;
const MAX_NUMBER = 1e9;
const MAX_LABELS = 20;
const LABEL_CHARS = 50;

const PULL_ACTIONS = new Set([
  "opened",
  "reopened",
  "edited",
  "ready_for_review",
  "converted_to_draft",
  "review_requested",
  "review_request_removed",
  "synchronize",
  "labeled",
  "unlabeled",
  "closed",
]);
const REVIEW_ACTIONS = new Set(["submitted", "dismissed"]);

function loginOf(value: unknown): string | null {
  const login = record(value)?.login;
  return normalizeGithubLogin(login) ? login as string : null;
}

function teamOf(value: unknown, owner: string): string | null {
  const slug = record(value)?.slug;
  return typeof slug === "string" && TEAM.test(slug) ? `${owner}/${slug}` : null;
}

function uniqueBy(values: string[], limit: number): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, limit);
}

/** The web address of a pull request or issue, when it is an http(s) address. */
export function urlOf(value: unknown): string | null {
  if (typeof value !== "string" || value.length > URL_CHARS) return null;
  return /^https?:\/\//.test(value) ? value : null;
}

/** The label names of a pull request or issue object, checked and cut to size. */
export function labelsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const names = value.slice(0, MAX_LABELS).map((label) => record(label)?.name)
    .filter((name) => typeof name === "string" && name.length > 0 && name.length <= LABEL_CHARS);
  return uniqueBy(names as string[], MAX_LABELS);
}

/** A GitHub timestamp (`created_at`, `updated_at`) in Unix ms, or NaN. */
export function timeOf(value: unknown): number {
  return typeof value === "string" ? Date.parse(value) : NaN;
}

/**
 * A pull request object (a payload's `pull_request`, or one item of GitHub's list of open pull
 * requests) as the index keeps it, or null when it is not one; its last activity is its
 * `updated_at`, else `now`.
 */
export function openPullOf(
  repository: string,
  value: unknown,
  now: number,
): OpenPull | null {
  const pull = record(value);
  if (!pull || !REPOSITORY.test(repository)) return null;
  const number = pull.number;
  if (!Number.isInteger(number) || (number as number) < 1 || (number as number) > MAX_NUMBER) {
    return null;
  }
  const createdAt = timeOf(pull.created_at);
  const updatedAt = timeOf(pull.updated_at);
  const url = urlOf(pull.html_url);
  const author = loginOf(pull.user);
  if (!Number.isFinite(createdAt) || !url || !author) return null;
  const owner = repository.split("/")[0];
  const reviewers = Array.isArray(pull.requested_reviewers)
    ? pull.requested_reviewers.slice(0, MAX_REVIEWERS).map(loginOf).filter((l) => l !== null)
    : [];
  const teams = Array.isArray(pull.requested_teams)
    ? pull.requested_teams.slice(0, MAX_TEAMS).map((t) => teamOf(t, owner)).filter((t) =>
      t !== null
    )
    : [];
  return {
    repository,
    number: number as number,
    title: typeof pull.title === "string" ? pull.title.slice(0, TITLE_CHARS) : "",
    url,
    author,
    createdAt,
    draft: pull.draft === true,
    reviewers: uniqueBy(reviewers as string[], MAX_REVIEWERS),
    teams: uniqueBy(teams as string[], MAX_TEAMS),
    labels: labelsOf(pull.labels),
    updatedAt: Number.isFinite(updatedAt) ? updatedAt : now,
  };
}

const without = (values: string[], value: string | null) =>
  value === null ? values : values.filter((v) => v.toLowerCase() !== value.toLowerCase());

/** What `event` changes in the index, or null when it is not about a pull request's review. */
function pullChangeOf(event: ForgeEvent, now: number): PullChange | null {
  if (event.provider !== "github" || event.action === undefined) return null;
  const isPull = event.kind === "pull_request" && PULL_ACTIONS.has(event.action);
  const isReview = event.kind === "pull_request_review" && REVIEW_ACTIONS.has(event.action);
  if (!isPull && !isReview) return null;
  const repository = record(event.payload.repository)?.full_name;
  if (typeof repository !== "string") return null;
  const pull = openPullOf(repository, event.payload.pull_request, now);
  if (!pull) return null;
  const state = record(event.payload.pull_request)?.state;
  if (event.action === "closed" || state === "closed") {
    return { kind: "closed", repository, number: pull.number, updatedAt: pull.updatedAt };
  }
  const owner = repository.split("/")[0];
  if (event.action === "review_requested") {
    const login = loginOf(event.payload.requested_reviewer);
    const team = teamOf(event.payload.requested_team, owner);
    if (login) pull.reviewers = uniqueBy([...pull.reviewers, login], MAX_REVIEWERS);
    if (team) pull.teams = uniqueBy([...pull.teams, team], MAX_TEAMS);
  } else if (event.action === "review_request_removed") {
    pull.reviewers = without(pull.reviewers, loginOf(event.payload.requested_reviewer));
    pull.teams = without(pull.teams, teamOf(event.payload.requested_team, owner));
  }
  if (!isReview) return { kind: "open", pull };
  // GitHub's requests after the review: a reviewer's own request is gone, and a team's when
  // one of its members reviewed; lists the payload does not carry are kept from the entry.
  const payloadPull = record(event.payload.pull_request);
  const unlisted = {
    reviewers: !Array.isArray(payloadPull?.requested_reviewers),
    teams: !Array.isArray(payloadPull?.requested_teams),
  };
  const reviewer = event.action === "submitted"
    ? loginOf(record(event.payload.review)?.user)
    : null;
  pull.reviewers = without(pull.reviewers, reviewer);
  return { kind: "open", pull, unlisted, ...(reviewer ? { reviewedBy: reviewer } : {}) };
}

/**
 * Applies what `event` changes to the index of each group it entered (`internalIds`). A failure
 * is logged and never holds delivery up: the next refresh from GitHub repairs the entry.
 */
export async function indexPullEvent(
  kv: Kv,
  log: Logger,
  event: ForgeEvent,
  internalIds: readonly string[],
  now: number,
): Promise<void> {
  const change = pullChangeOf(event, now);
  if (!change) return;
  const apply = (internalId: string) => applyPullChange(kv, internalId, change);
  await applyToEachGroup(log, "pull request index", event, internalIds, apply);
}
