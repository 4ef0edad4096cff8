/**
 * A refresh of the open pull request index from GitHub (lib/delivery/pull_refresh.ts) racing the
 * events that keep the index: an event that lands after the refresh's GitHub read started (while
 * GitHub answers, or just before the refresh writes) is never undone by the refresh's older list;
 * with nothing landing meanwhile the refresh replaces the repository's entries exactly, in commits
 * within the store's limits; a refresh stopped partway leaves every entry as it was or as
 * GitHub lists it, and runs again at the next reminder; and one that events beat at every attempt
 * gives up without writing GitHub's list.
 */
import assert from "node:assert/strict";
import type { Kv, KvKey } from "../../lib/store/backend/types.ts";
import {
  applyPullChange,
  listOpenPulls,
  listPullRepositories,
  type OpenPull,
} from "../../lib/store/delivery/open_pulls.ts";
import { indexPullEvent, openPullOf } from "../../lib/delivery/pull_index.ts";
import { refreshGroupPulls } from "../../lib/delivery/pull_refresh.ts";
import { saveToken } from "../../lib/store/auth/tokens.ts";
import { MAX_CHECKS_PER_COMMIT } from "../../lib/store/commit_limits.ts";
import type { Config } from "../../lib/config.ts";
import type { ForgeEvent } from "../../lib/types.ts";
import { openTestKv, type TestKv } from "../../testing/test_store.ts";
import { captureLog } from "../_helpers.ts";
import { deliveryConfig } from "../_delivery_helpers.ts";
import { commitInterceptingKv, commitRecordingKv } from "../_kv_commits.ts";
import { type FakeGitHub, githubEnv, startFakeGitHub } from "../fake_github.ts";

const ALICE = { userId: "11", login: "alice" };
const REPO = "octo/app";
const GROUP = "g1";
const AT = (time: string) => `2026-03-20T${time}:00Z`;
const NOW = Date.parse("2026-03-20T12:00:00Z");
const MINUTE = 60_000;

interface World extends AsyncDisposable {
  kv: TestKv;
  github: FakeGitHub;
  config: Config;
}

/** A store, a fake GitHub and Alice's token for it. */
async function world(): Promise<World> {
  const kv = await openTestKv();
  const github = startFakeGitHub();
  const config = deliveryConfig({}, githubEnv(github));
  const pair = github.issueTokens({ id: Number(ALICE.userId), login: ALICE.login });
  await saveToken(kv, { ...ALICE, accessToken: pair.accessToken, expiresAt: null }, {
    encryptionKey: config.tokenEncryptionKey,
    now: Date.now(),
  });
  return {
    kv,
    github,
    config,
    async [Symbol.asyncDispose]() {
      await github[Symbol.asyncDispose]();
      await kv[Symbol.asyncDispose]();
    },
  };
}

/** Refreshes the group's stale repositories through `kv` as Alice, at `now`. */
async function refresh(w: World, kv: Kv, now: number): Promise<void> {
  const { log } = captureLog();
  await refreshGroupPulls(
    { deps: { kv, config: w.config }, userIds: [ALICE.userId] },
    log,
    GROUP,
    now,
  );
}

/** A pull request object as GitHub writes it, last active at `updatedAt` (ISO). */
function pullObject(
  number: number,
  updatedAt: string,
  reviewers: string[],
  extra: Record<string, unknown> = {},
) {
  return {
    number,
    title: `Change ${number}`,
    html_url: `https://github.com/${REPO}/pull/${number}`,
    user: { login: "carol" },
    created_at: AT("09:00"),
    updated_at: updatedAt,
    state: "open",
    draft: false,
    requested_reviewers: reviewers.map((login) => ({ login })),
    requested_teams: [],
    ...extra,
  };
}

let eventCount = 0;

/** A `pull_request` event of the repository. */
function event(
  action: string,
  pullRequest: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): ForgeEvent {
  return {
    id: `e${++eventCount}`,
    provider: "github",
    kind: "pull_request",
    action,
    scope: { type: "group", groupId: "team" },
    receivedAt: 0,
    headers: {},
    payload: { action, repository: { full_name: REPO }, pull_request: pullRequest, ...extra },
  };
}

/** Handles `events` into the group's index, as the fan-out does. */
async function index(kv: Kv, ...events: ForgeEvent[]): Promise<void> {
  const { log, lines } = captureLog();
  for (const item of events) await indexPullEvent(kv, log, item, [GROUP], 0);
  assert.deepEqual(lines.filter((line) => line.level === "warn"), []);
}

async function indexed(kv: Kv): Promise<Map<number, OpenPull>> {
  return new Map((await listOpenPulls(kv, GROUP)).map((pull) => [pull.number, pull]));
}

const isIndexKey = (key: KvKey) => key[0] === "open_pulls";

/**
 * `kv` where the commits that write index entries are watched: `before(n)` runs just before the
 * n-th such commit (1-based) goes to the store, so what it does lands between the writer's reads
 * and its write; it may throw to make that commit fail.
 */
function watchedIndexWrites(kv: Kv, before: (n: number) => Promise<void>): Kv {
  let count = 0;
  return commitInterceptingKv(kv, async (written) => {
    if (written.some(isIndexKey)) await before(++count);
  });
}

Deno.test("a close landing after a refresh read GitHub's list keeps the pull request out", async () => {
  await using w = await world();
  await index(
    w.kv,
    event("opened", pullObject(7, AT("10:00"), ["alice"])),
    event("opened", pullObject(8, AT("10:00"), ["alice"])),
    event("opened", pullObject(9, AT("10:00"), ["alice"])),
  );
  // GitHub's list, read before #7 and #8 were merged, still shows them open
  w.github.openPulls.set(REPO, [7, 8, 9].map((n) => pullObject(n, AT("10:00"), ["alice"])));
  const merged = (n: number) =>
    event("closed", pullObject(n, AT("11:00"), ["alice"], { state: "closed", merged: true }));
  // #7's close lands while GitHub answers, #8's just before the refresh writes
  w.github.whilePullsAnswered = () => index(w.kv, merged(7));
  let landed = 0;
  const kv = watchedIndexWrites(w.kv, async (n) => {
    if (n === 1) await index(w.kv, merged(8));
    landed = n;
  });
  await refresh(w, kv, NOW);
  assert.ok(landed >= 1, "the close landed before the refresh wrote");
  assert.deepEqual([...(await indexed(w.kv)).keys()], [9]);

  // it stays out: a later refresh whose list still lags, and an older event handled late
  w.github.whilePullsAnswered = undefined;
  await refresh(w, w.kv, NOW + 11 * MINUTE);
  await index(
    w.kv,
    event("review_requested", pullObject(8, AT("10:30"), ["alice", "bob"]), {
      requested_reviewer: { login: "bob" },
    }),
  );
  assert.deepEqual([...(await indexed(w.kv)).keys()], [9]);
  assert.equal(w.github.requestsTo(`/repos/${REPO}/pulls`).length, 2);
});

Deno.test("a review request or an opened pull request landing during a refresh is still listed after it", async () => {
  await using w = await world();
  await index(
    w.kv,
    event("opened", pullObject(7, AT("10:00"), ["alice"])),
    event("opened", pullObject(8, AT("10:00"), ["alice"])),
  );
  // Alice's review of #8 came without an event reaching the group
  w.github.openPulls.set(REPO, [
    pullObject(7, AT("10:00"), ["alice"]),
    pullObject(8, AT("10:05"), []),
  ]);
  // while GitHub answers its older list: Bob's review is requested on #7 and #9 is opened
  w.github.whilePullsAnswered = () =>
    index(
      w.kv,
      event("review_requested", pullObject(7, AT("10:30"), ["alice", "bob"]), {
        requested_reviewer: { login: "bob" },
      }),
      event("opened", pullObject(9, AT("10:31"), ["dave"])),
    );
  // and just before the refresh writes, #10 is opened
  let landed = 0;
  const kv = watchedIndexWrites(w.kv, async (n) => {
    if (n === 1) await index(w.kv, event("opened", pullObject(10, AT("10:32"), ["erin"])));
    landed = n;
  });
  await refresh(w, kv, NOW);
  assert.ok(landed >= 1, "#10 was opened before the refresh wrote");
  const after = await indexed(w.kv);
  assert.deepEqual([...after.keys()], [7, 8, 9, 10]);
  assert.deepEqual(after.get(8)?.reviewers, []);
  assert.deepEqual(after.get(7)?.reviewers, ["alice", "bob"]);
  assert.equal(after.get(7)?.updatedAt, Date.parse(AT("10:30")));
  assert.deepEqual(after.get(9)?.reviewers, ["dave"]);
  assert.deepEqual(after.get(10)?.reviewers, ["erin"]);

  // the next refresh, with GitHub's list current, takes GitHub's state again
  w.github.whilePullsAnswered = undefined;
  w.github.openPulls.set(REPO, [pullObject(9, AT("11:00"), [])]);
  await refresh(w, w.kv, NOW + 11 * MINUTE);
  const later = await indexed(w.kv);
  assert.deepEqual([...later.keys()], [9]);
  assert.deepEqual(later.get(9)?.reviewers, []);
});

/** Pull request `n` with every field at its largest, as GitHub lists it. */
function largePull(n: number, reviewer: string) {
  return pullObject(n, AT("11:00"), [reviewer, ...Array.from({ length: 19 }, (_, i) => `r${i}`)], {
    title: "長".repeat(300),
    requested_teams: Array.from({ length: 10 }, (_, i) => ({ slug: `${"t".repeat(97)}${i}` })),
    labels: Array.from({ length: 20 }, (_, i) => ({ name: `${"ラ".repeat(48)}${i}` })),
  });
}

/** Stores pull requests `from`..`to` as events left them (their review asked from Alice). */
async function seed(kv: Kv, from: number, to: number): Promise<Map<number, OpenPull>> {
  for (let n = from; n <= to; n++) {
    const pull = openPullOf(REPO, pullObject(n, AT("10:00"), ["alice"]), 0)!;
    assert.ok(await applyPullChange(kv, GROUP, { kind: "open", pull }));
  }
  return await indexed(kv);
}

Deno.test("a refresh with no change meanwhile replaces the repository's entries exactly, in commits within the limits", async () => {
  await using w = await world();
  await seed(w.kv, 1, 60);
  // #1..#30 were merged unseen; #31..#60 changed; #61..#129 were opened unseen
  const listed = Array.from({ length: 99 }, (_, i) => largePull(31 + i, "bob"));
  w.github.openPulls.set(REPO, listed);
  const { kv, commits } = commitRecordingKv(w.kv);
  await refresh(w, kv, NOW);
  const after = await indexed(w.kv);
  assert.deepEqual([...after.keys()], listed.map((pull) => pull.number));
  for (const item of listed) {
    assert.deepEqual(after.get(item.number), openPullOf(REPO, item, NOW));
  }
  assert.deepEqual(await listPullRepositories(w.kv, GROUP), [
    { repository: REPO, refreshedAt: NOW },
  ]);
  for (const commit of commits) {
    assert.ok(commit.checks <= MAX_CHECKS_PER_COMMIT, JSON.stringify(commit.checks));
  }
});

Deno.test("a refresh stopped partway leaves each entry as it was or as GitHub lists it, and runs again", async () => {
  await using w = await world();
  const before = await seed(w.kv, 1, 60);
  const listed = Array.from({ length: 99 }, (_, i) => largePull(31 + i, "bob"));
  w.github.openPulls.set(REPO, listed);
  const github = new Map(listed.map((item) => [item.number, openPullOf(REPO, item, NOW)!]));
  let stopped = false;
  const kv = watchedIndexWrites(w.kv, (n) => {
    if (n < 2) return Promise.resolve();
    stopped = true;
    return Promise.reject(new Error("the store went away"));
  });
  await refresh(w, kv, NOW);
  assert.ok(stopped, "the refresh wrote in more than one commit");
  const after = await indexed(w.kv);
  for (let n = 1; n <= 129; n++) {
    const now = after.get(n) ?? null;
    const was = before.get(n) ?? null;
    const listedAs = github.get(n) ?? null;
    assert.ok(
      JSON.stringify(now) === JSON.stringify(was) ||
        JSON.stringify(now) === JSON.stringify(listedAs),
      `#${n}: ${JSON.stringify(now)}`,
    );
  }
  assert.deepEqual(await listPullRepositories(w.kv, GROUP), [{ repository: REPO }]);
  // not recorded as refreshed: the next reminder reads GitHub again, and completes it
  await refresh(w, w.kv, NOW + MINUTE);
  assert.equal(w.github.requestsTo(`/repos/${REPO}/pulls`).length, 2);
  assert.deepEqual([...(await indexed(w.kv)).keys()], [...github.keys()]);
});

Deno.test("a refresh that events beat at every attempt gives up: the index stays as they left it, and the next refresh completes", async () => {
  await using w = await world();
  await seed(w.kv, 1, 3);
  const listed = [1, 2, 3, 4].map((n) => pullObject(n, AT("11:00"), ["bob"]));
  w.github.openPulls.set(REPO, listed);
  let landed = 0;
  const kv = watchedIndexWrites(w.kv, async () => {
    const pull = openPullOf(REPO, pullObject(200 + ++landed, AT("11:30"), ["alice"]), 0)!;
    assert.ok(await applyPullChange(w.kv, GROUP, { kind: "open", pull }));
  });
  const { log, lines } = captureLog();
  await refreshGroupPulls(
    { deps: { kv, config: w.config }, userIds: [ALICE.userId] },
    log,
    GROUP,
    NOW,
  );
  assert.equal(landed, 5, "an event landed before each of the five attempts");
  assert.deepEqual(
    lines.filter((line) => line.level === "warn").map((line) => line.msg ?? line.message),
    ["open pull requests not refreshed"],
  );
  assert.deepEqual(
    [...(await indexed(w.kv)).keys()],
    [1, 2, 3, 201, 202, 203, 204, 205],
    "nothing of GitHub's list was written: #4 is missing, the events' pull requests stay",
  );
  assert.deepEqual(await listPullRepositories(w.kv, GROUP), [{ repository: REPO }]);

  await refresh(w, w.kv, NOW + MINUTE);
  assert.deepEqual([...(await indexed(w.kv)).keys()], [1, 2, 3, 4]);
});
