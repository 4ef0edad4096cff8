/**
 * The index of open pull requests per group and repository, kept from the events the group
 * receives and refreshed from GitHub (lib/delivery/pull_index.ts, pull_refresh.ts); review
 * reminders read it. A pull request lives under
 * `["open_pulls", groupInternalId, repository, number]` (repository in lower case) and each
 * repository the group's index follows under `["pull_repositories", groupInternalId,
 * repository]` with when it was last refreshed. Keyed by the group's internal id, so one group's
 * events never add to another group's list. Bounded: at most {@link MAX_PULLS_PER_REPOSITORY}
 * pull requests per repository and {@link MAX_REPOSITORIES_PER_GROUP} repositories per group.
 */
import type { Kv, KvKey } from "../backend/types.ts";
import {
  openPullKey,
  openPullsOfRepositoryPrefix,
  openPullsPrefix,
  pullRepositoriesPrefix,
  pullRepositoryKey,
} from "../keys.ts";

/** An open pull request as the index keeps it. */
export interface OpenPull {
  /** `owner/name` as GitHub spells it. */
  repository: string;
  number: number;
  title: string;
  url: string;
  author: string;
  /** When it was opened (Unix ms). */
  createdAt: number;
  draft: boolean;
  /** Logins whose review is requested (as GitHub spells them). */
  reviewers: string[];
  /** Teams whose review is requested (`org/slug`). */
  teams: string[];
  /** Label names (absent in entries kept before labels were). */
  labels?: string[];
  /** Its last activity: GitHub's `updated_at`, else when the index last changed it (Unix ms). */
  updatedAt: number;
}

/** A repository the index follows. */
export interface PullRepository {
  repository: string;
  /** When its list was last replaced by GitHub's (Unix ms); absent: never. */
  refreshedAt?: number;
}

/** Most pull requests kept per repository. */
export const MAX_PULLS_PER_REPOSITORY = 200;
/** Most repositories one group's index follows. */
const MAX_REPOSITORIES_PER_GROUP = 100;
/** Most entries read for one group. */
const MAX_GROUP_ENTRIES = MAX_PULLS_PER_REPOSITORY * 10;

const lower = (repository: string) => repository.toLowerCase();

/** The change an event makes to one pull request: keep it as given, or drop it. */
export type PullChange = { kind: "open"; pull: OpenPull } | {
  kind: "closed";
  repository: string;
  number: number;
  /** The pull request's last activity as the closing event saw it (Unix ms), when known. */
  updatedAt?: number;
};

/**
 * Applies `change` to the index of the group `internalId`, in one commit with the repository's
 * entry. A new pull request is left out when its repository holds
 * {@link MAX_PULLS_PER_REPOSITORY} already, and a new repository when the group follows
 * {@link MAX_REPOSITORIES_PER_GROUP}; false then.
 */
export async function applyPullChange(
  kv: Kv,
  internalId: string,
  change: PullChange,
): Promise<boolean> {
  const repository = change.kind === "open" ? change.pull.repository : change.repository;
  const number = change.kind === "open" ? change.pull.number : change.number;
  const key = openPullKey(internalId, lower(repository), number);
  const repoKey = pullRepositoryKey(internalId, lower(repository));
  const [existing, repo] = await kv.getMany<[OpenPull, PullRepository]>([key, repoKey]);
  // An event processed after a later one (jobs run out of order) leaves the later state.
  const seen = change.kind === "open" ? change.pull.updatedAt : change.updatedAt;
  if (existing.value !== null && seen !== undefined && seen < existing.value.updatedAt) return true;
  if (change.kind === "closed") {
    await kv.atomic().check(existing).delete(key).commit();
    return true;
  }
  if (existing.value === null) {
    const repositories = pullRepositoriesPrefix(internalId);
    if (repo.value === null && await isFull(kv, repositories, MAX_REPOSITORIES_PER_GROUP)) {
      return false;
    }
    const pulls = openPullsOfRepositoryPrefix(internalId, lower(repository));
    if (await isFull(kv, pulls, MAX_PULLS_PER_REPOSITORY)) return false;
  }
  const op = kv.atomic().set(key, change.pull);
  if (repo.value === null) op.set(repoKey, { repository } satisfies PullRepository);
  await op.commit();
  return true;
}

/** Whether `limit` entries are stored under `prefix` already. */
async function isFull(kv: Kv, prefix: KvKey, limit: number): Promise<boolean> {
  let count = 0;
  for await (const _ of kv.list({ prefix }, { limit })) count++;
  return count >= limit;
}

/** The open pull requests of the group `internalId` (every repository), in key order. */
export async function listOpenPulls(kv: Kv, internalId: string): Promise<OpenPull[]> {
  const entries = kv.list<OpenPull>({ prefix: openPullsPrefix(internalId) }, {
    limit: MAX_GROUP_ENTRIES,
  });
  return (await Array.fromAsync(entries)).map((entry) => entry.value);
}

/** The repositories the group's index follows. */
export async function listPullRepositories(
  kv: Kv,
  internalId: string,
): Promise<PullRepository[]> {
  const entries = kv.list<PullRepository>({ prefix: pullRepositoriesPrefix(internalId) }, {
    limit: MAX_REPOSITORIES_PER_GROUP,
  });
  return (await Array.fromAsync(entries)).map((entry) => entry.value);
}

/**
 * Replaces a repository's entries with GitHub's open list `pulls` (at most
 * {@link MAX_PULLS_PER_REPOSITORY}), and records the refresh at `now`. When `complete` is false
 * (GitHub had more than one page, newest first), only entries at least as new as the oldest
 * listed one are judged: an older one not listed is kept.
 */
export async function replaceRepositoryPulls(
  kv: Kv,
  internalId: string,
  repository: string,
  pulls: readonly OpenPull[],
  complete: boolean,
  now: number,
): Promise<void> {
  const listed = pulls.slice(0, MAX_PULLS_PER_REPOSITORY);
  const prefix = openPullsOfRepositoryPrefix(internalId, lower(repository));
  const stored = await Array.fromAsync(
    kv.list<OpenPull>({ prefix }, { limit: MAX_PULLS_PER_REPOSITORY }),
  );
  const numbers = new Set(listed.map((pull) => pull.number));
  const oldestListed = Math.min(...listed.map((pull) => pull.createdAt));
  const op = kv.atomic();
  for (const entry of stored) {
    const gone = !numbers.has(entry.value.number) &&
      (complete || entry.value.createdAt >= oldestListed);
    if (gone) op.delete(entry.key);
  }
  for (const pull of listed) op.set(openPullKey(internalId, lower(repository), pull.number), pull);
  op.set(
    pullRepositoryKey(internalId, lower(repository)),
    {
      repository,
      refreshedAt: now,
    } satisfies PullRepository,
  );
  await op.commit();
}
