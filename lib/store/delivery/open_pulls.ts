/**
 * The index of open pull requests per group and repository, kept from the events the group
 * receives and refreshed from GitHub (lib/delivery/pull_index.ts, pull_refresh.ts); review
 * reminders read it. A pull request lives under
 * `["open_pulls", groupInternalId, repository, number]` (repository in lower case) and each
 * repository the group's index follows under `["pull_repositories", groupInternalId,
 * repository]` with when it was last refreshed; a closed one leaves a marker under
 * `["closed_pulls", groupInternalId, repository, number]` for a week, so an older event handled
 * after the close does not bring it back. Keyed by the group's internal id, so one group's
 * events never add to another group's list. Bounded: at most {@link MAX_PULLS_PER_REPOSITORY}
 * pull requests per repository and {@link MAX_REPOSITORIES_PER_GROUP} repositories per group.
 *
 * Events and refreshes race. Every event's change is read, checked and retried, and adds one to
 * the repository's change counter (`["pull_changes", groupInternalId, repository]`) in its own
 * commit, without checking it (events never conflict over it). A refresh reads the repository's
 * entries with their versionstamps before it asks GitHub ({@link readRepositoryPulls}), then
 * writes GitHub's list in commits of at most {@link ENTRIES_PER_COMMIT} entries
 * ({@link replaceRepositoryPulls}), removals first. Each commit re-reads its entries and their
 * closed markers, leaves alone every entry whose versionstamp is no longer the one read before
 * GitHub was asked (an event changed it since: the event's state stays until the next refresh),
 * keeps out every listed pull request whose closed marker is as recent as the listing, and checks
 * the change counter as re-read, so an event that lands between those reads and the write makes
 * the commit fail and be redone (at most {@link MAX_ATTEMPTS} times). Each commit is complete on
 * its own: a refresh stopped partway leaves every entry as it was or as GitHub listed it (never an
 * event's change undone), and is not recorded, so the next reminder refreshes the repository
 * again. One check per commit (the counter), within lib/store/commit_limits.ts.
 */
import type { Kv, KvKey } from "../backend/types.ts";
import {
  closedPullKey,
  openPullKey,
  openPullsOfRepositoryPrefix,
  openPullsPrefix,
  pullChangesKey,
  pullRepositoriesPrefix,
  pullRepositoryKey,
} from "../keys.ts";
import { getManyInBatches } from "../batch.ts";
import { retryOnConflict } from "../conflict_retry.ts";

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

/** A closed pull request, kept a while so an older event arriving late does not bring it back. */
interface ClosedPull {
  /** The closing event's last activity (Unix ms). */
  updatedAt: number;
}

/** How long a closed pull request's marker is kept. */
export const CLOSED_KEEP_MS = 7 * 24 * 3_600_000;
/** Most attempts of one refresh commit when events change what it read meanwhile. */
const MAX_ATTEMPTS = 5;
/**
 * Most entries one refresh commit sets or removes: an entry's fields are bounded
 * (lib/delivery/pull_index.ts) to a few KB, so a commit stays far below Deno KV's 1,000
 * mutations and 800 KiB.
 */
const ENTRIES_PER_COMMIT = 50;

/**
 * The change an event makes to one pull request: keep it as given, or drop it. An open change
 * may name request lists its event did not carry (`unlisted`: the stored entry's are kept) and
 * a login whose review was just submitted (`reviewedBy`: its request goes from the kept list).
 */
export type PullChange = {
  kind: "open";
  pull: OpenPull;
  unlisted?: { reviewers: boolean; teams: boolean };
  reviewedBy?: string;
} | {
  kind: "closed";
  repository: string;
  number: number;
  /** The pull request's last activity as the closing event saw it (Unix ms). */
  updatedAt: number;
};

/**
 * Applies `change` to the index of the group `internalId`, in one commit with the repository's
 * entry, checked against what it read and tried again when another change won the race. A
 * change older than the entry's last activity changes nothing (events may be handled out of
 * order); a closed pull request leaves a marker for {@link CLOSED_KEEP_MS} that only a later
 * open (a reopen) replaces, so a close handled before its open keeps it out. A new pull request
 * is left out when its repository holds {@link MAX_PULLS_PER_REPOSITORY} already (markers are
 * kept apart and do not count), and a new repository when the group follows
 * {@link MAX_REPOSITORIES_PER_GROUP}; false then. At most three checks per commit; a commit that
 * changes the index adds one to the repository's change counter.
 */
export async function applyPullChange(
  kv: Kv,
  internalId: string,
  change: PullChange,
): Promise<boolean> {
  return await retryOnConflict(
    () => tryPullChange(kv, internalId, change),
    "the pull request changed too often to update its entry",
  );
}

/** One attempt of {@link applyPullChange}; "conflict" when what it read changed meanwhile. */
async function tryPullChange(
  kv: Kv,
  internalId: string,
  change: PullChange,
): Promise<boolean | "conflict"> {
  const repository = change.kind === "open" ? change.pull.repository : change.repository;
  const number = change.kind === "open" ? change.pull.number : change.number;
  const key = openPullKey(internalId, lower(repository), number);
  const closedKey = closedPullKey(internalId, lower(repository), number);
  const repoKey = pullRepositoryKey(internalId, lower(repository));
  const changesKey = pullChangesKey(internalId, lower(repository));
  const [existing, closed, repo] = await kv.getMany<[OpenPull, ClosedPull, PullRepository]>([
    key,
    closedKey,
    repoKey,
  ]);
  const seen = change.kind === "open" ? change.pull.updatedAt : change.updatedAt;
  if (existing.value !== null && seen < existing.value.updatedAt) return true; // a later one won
  if (change.kind === "closed") {
    if (closed.value !== null && seen <= closed.value.updatedAt) return true;
    const op = kv.atomic().check(existing, closed).delete(key)
      .set(closedKey, { updatedAt: seen } satisfies ClosedPull, { expireIn: CLOSED_KEEP_MS })
      .sum(changesKey, 1n);
    return (await op.commit()).ok || "conflict";
  }
  // Closed as of the same moment or later: only a later reopen brings it back.
  if (closed.value !== null && seen <= closed.value.updatedAt) return true;
  if (existing.value === null) {
    const repositories = pullRepositoriesPrefix(internalId);
    if (repo.value === null && await isFull(kv, repositories, MAX_REPOSITORIES_PER_GROUP)) {
      return false;
    }
    const pulls = openPullsOfRepositoryPrefix(internalId, lower(repository));
    if (await isFull(kv, pulls, MAX_PULLS_PER_REPOSITORY)) return false;
  }
  const op = kv.atomic().check(existing, closed, repo)
    .set(key, withKeptRequests(change, existing.value))
    .sum(changesKey, 1n);
  if (closed.value !== null) op.delete(closedKey);
  if (repo.value === null) op.set(repoKey, { repository } satisfies PullRepository);
  return (await op.commit()).ok || "conflict";
}

/** The open change's pull request, with the request lists its event did not carry from `kept`. */
function withKeptRequests(
  change: PullChange & { kind: "open" },
  kept: OpenPull | null,
): OpenPull {
  const { pull, unlisted, reviewedBy } = change;
  if (!unlisted || !kept) return pull;
  const reviewed = reviewedBy?.toLowerCase();
  return {
    ...pull,
    reviewers: unlisted.reviewers
      ? kept.reviewers.filter((login) => login.toLowerCase() !== reviewed)
      : pull.reviewers,
    teams: unlisted.teams ? kept.teams : pull.teams,
  };
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

/** A repository's entries as a refresh read them before asking GitHub. */
export interface PullsBeforeRefresh {
  repository: string;
  /** Each entry's versionstamp and when its pull request was opened, by number. */
  entries: Map<number, { versionstamp: string; createdAt: number }>;
}

/** Reads `repository`'s entries; a refresh does so before it asks GitHub for the open list. */
export async function readRepositoryPulls(
  kv: Kv,
  internalId: string,
  repository: string,
): Promise<PullsBeforeRefresh> {
  const prefix = openPullsOfRepositoryPrefix(internalId, lower(repository));
  const entries: PullsBeforeRefresh["entries"] = new Map();
  for await (const entry of kv.list<OpenPull>({ prefix }, { limit: MAX_PULLS_PER_REPOSITORY })) {
    entries.set(entry.value.number, {
      versionstamp: entry.versionstamp,
      createdAt: entry.value.createdAt,
    });
  }
  return { repository, entries };
}

/**
 * Replaces a repository's entries, as `before` read them ahead of GitHub's list, with that list
 * `pulls` (at most {@link MAX_PULLS_PER_REPOSITORY}), and records the refresh at `now`. When
 * `complete` is false (GitHub had more than one page, newest first), only entries at least as new
 * as the oldest listed one are judged: an older one not listed is kept. A listed one closed since
 * GitHub's list was read (its marker's activity is not older) stays out, and an entry an event
 * changed (or added) since `before` stays as the event left it; see the module comment for how
 * the commits are split and checked. Throws when events keep winning
 * ({@link MAX_ATTEMPTS} times for one commit); the commits made so far stay, the refresh is
 * not recorded.
 */
export async function replaceRepositoryPulls(
  kv: Kv,
  internalId: string,
  before: PullsBeforeRefresh,
  pulls: readonly OpenPull[],
  complete: boolean,
  now: number,
): Promise<void> {
  const { repository } = before;
  const listed = new Map(
    pulls.slice(0, MAX_PULLS_PER_REPOSITORY).map((pull) => [pull.number, pull]),
  );
  const oldestListed = Math.min(...[...listed.values()].map((pull) => pull.createdAt));
  const gone = [...before.entries].filter(([number, entry]) =>
    !listed.has(number) && (complete || entry.createdAt >= oldestListed)
  ).map(([number]) => number);
  const numbers = [...gone, ...listed.keys()];
  for (let start = 0; start < numbers.length; start += ENTRIES_PER_COMMIT) {
    const batch = numbers.slice(start, start + ENTRIES_PER_COMMIT);
    let attempt = 0;
    while (!await tryRefreshBatch(kv, internalId, before, listed, batch)) {
      if (++attempt >= MAX_ATTEMPTS) {
        throw new Error("the repository's pull requests changed too often to refresh them");
      }
    }
  }
  await kv.set(
    pullRepositoryKey(internalId, lower(repository)),
    { repository, refreshedAt: now } satisfies PullRepository,
  );
}

/**
 * One commit of {@link replaceRepositoryPulls} for the pull requests `numbers`: each unchanged
 * since `before` becomes GitHub's listed one, or goes when not listed (or closed since the
 * listing). False when an event changed the repository's entries meanwhile.
 */
async function tryRefreshBatch(
  kv: Kv,
  internalId: string,
  before: PullsBeforeRefresh,
  listed: ReadonlyMap<number, OpenPull>,
  numbers: readonly number[],
): Promise<boolean> {
  const repository = lower(before.repository);
  const changes = await kv.get(pullChangesKey(internalId, repository));
  const entries = await getManyInBatches<OpenPull>(
    kv,
    numbers.map((number) => openPullKey(internalId, repository, number)),
  );
  const closed = await getManyInBatches<ClosedPull>(
    kv,
    numbers.map((number) => closedPullKey(internalId, repository, number)),
  );
  const op = kv.atomic().check(changes);
  let writes = 0;
  numbers.forEach((number, index) => {
    const entry = entries[index];
    // changed by an event since the refresh read the index: its state is newer than the list's
    if (entry.versionstamp !== (before.entries.get(number)?.versionstamp ?? null)) return;
    const pull = listed.get(number);
    const marker = closed[index].value;
    if (pull && (marker === null || pull.updatedAt > marker.updatedAt)) {
      op.set(entry.key, pull);
      writes++;
    } else if (entry.versionstamp !== null) {
      op.delete(entry.key);
      writes++;
    }
  });
  return writes === 0 || (await op.commit()).ok;
}
