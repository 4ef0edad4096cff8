/**
 * The index of open pull requests under concurrency and out-of-order events: two events for the
 * same pull request handled at the same time both count (read, check, write, retry), a close
 * handled before the open of the same pull request keeps it out until a later reopen, and a
 * review submitted by a team member follows GitHub's requests after the review.
 */
import assert from "node:assert/strict";
import type { AtomicOperation, Kv, KvKey } from "../../lib/store/backend/types.ts";
import {
  applyPullChange,
  listOpenPulls,
  type OpenPull,
  readRepositoryPulls,
  replaceRepositoryPulls,
} from "../../lib/store/delivery/open_pulls.ts";
import { indexPullEvent } from "../../lib/delivery/pull_index.ts";
import type { ForgeEvent } from "../../lib/types.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { captureLog } from "../_helpers.ts";
import { commitRecordingKv } from "../_kv_commits.ts";

const REPO = "octo/app";

function pull(updatedAt: number, reviewers: string[], teams: string[]): OpenPull {
  return {
    repository: REPO,
    number: 7,
    title: "Change 7",
    url: `https://github.com/${REPO}/pull/7`,
    author: "carol",
    createdAt: 1,
    draft: false,
    reviewers,
    teams,
    labels: [],
    updatedAt,
  };
}

/**
 * `kv` where the first two `getMany` reads wait for each other (both read the same state), and
 * the commit writing a value whose `updatedAt` is `lastWriter` waits until another commit is
 * done: the older change writes last, as two jobs racing can.
 */
function interleavingKv(kv: Kv, lastWriter: number): Kv {
  let reads = 0;
  let bothRead: () => void;
  const readBarrier = new Promise<void>((resolve) => bothRead = resolve);
  let otherCommitted: () => void;
  const otherCommit = new Promise<void>((resolve) => otherCommitted = resolve);
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === "getMany") {
        return async (...args: Parameters<Kv["getMany"]>) => {
          const result = await target.getMany(...args);
          if (++reads <= 2) {
            if (reads === 2) bothRead();
            await readBarrier;
          }
          return result;
        };
      }
      if (property !== "atomic") return typeof value === "function" ? value.bind(target) : value;
      return () => {
        const op = target.atomic();
        let holds = false;
        const wrapped = {
          check: (...checks: Parameters<AtomicOperation["check"]>) => {
            op.check(...checks);
            return wrapped;
          },
          set: (...args: Parameters<AtomicOperation["set"]>) => {
            holds ||= (args[1] as { updatedAt?: number } | null)?.updatedAt === lastWriter;
            op.set(...args);
            return wrapped;
          },
          delete: (key: KvKey) => {
            op.delete(key);
            return wrapped;
          },
          sum: (key: KvKey, n: bigint) => {
            op.sum(key, n);
            return wrapped;
          },
          commit: async () => {
            if (holds) await otherCommit;
            const result = await op.commit();
            if (!holds) otherCommitted();
            return result;
          },
        };
        return wrapped as unknown as AtomicOperation;
      };
    },
  });
}

Deno.test("two changes to one pull request handled at the same time both count", async () => {
  await using store = await openTestKv();
  const { kv: recording, commits } = commitRecordingKv(store);
  assert.ok(await applyPullChange(recording, "g1", { kind: "open", pull: pull(1_000, [], []) }));
  // The team's request (older) and Bob's (newer, GitHub's state then lists both) race; the
  // older one's write comes last.
  const kv = interleavingKv(recording, 2_000);
  const team = pull(2_000, [], ["octo/core"]);
  const bob = pull(3_000, ["bob"], ["octo/core"]);
  const done = await Promise.all([
    applyPullChange(kv, "g1", { kind: "open", pull: team }),
    applyPullChange(kv, "g1", { kind: "open", pull: bob }),
  ]);
  assert.deepEqual(done, [true, true]);
  const [kept] = await listOpenPulls(store, "g1");
  assert.deepEqual(kept.reviewers, ["bob"]);
  assert.deepEqual(kept.teams, ["octo/core"]);
  assert.equal(kept.updatedAt, 3_000);
  for (const commit of commits) {
    assert.ok(commit.checks >= 1 && commit.checks <= 10, JSON.stringify(commit));
  }

  // many at once, in whatever order they land: the latest state is what stays
  for (let round = 0; round < 20; round++) {
    const changes = [...Array(5).keys()].map((index) => 10_000 * (round + 1) + index)
      .sort(() => Math.random() - 0.5)
      .map((at) => applyPullChange(store, "g1", { kind: "open", pull: pull(at, [`r${at}`], []) }));
    await Promise.all(changes);
    const [latest] = await listOpenPulls(store, "g1");
    assert.equal(latest.updatedAt, 10_000 * (round + 1) + 4);
    assert.deepEqual(latest.reviewers, [`r${latest.updatedAt}`]);
  }
});

let eventCount = 0;

function event(
  kind: string,
  action: string,
  pullRequest: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): ForgeEvent {
  return {
    id: `e${++eventCount}`,
    provider: "github",
    kind,
    action,
    scope: { type: "group", groupId: "team" },
    receivedAt: 0,
    headers: {},
    payload: { action, repository: { full_name: REPO }, pull_request: pullRequest, ...extra },
  };
}

/** Pull request #7 as a payload shows it at `updatedAt` (ISO seconds). */
function pullObject(updatedAt: string, extra: Record<string, unknown> = {}) {
  return {
    number: 7,
    title: "Change 7",
    html_url: `https://github.com/${REPO}/pull/7`,
    user: { login: "carol" },
    created_at: "2026-03-20T10:00:00Z",
    updated_at: updatedAt,
    state: "open",
    draft: false,
    requested_reviewers: [{ login: "alice" }],
    requested_teams: [],
    ...extra,
  };
}

async function index(kv: Kv, ...events: ForgeEvent[]): Promise<OpenPull[]> {
  const { log } = captureLog();
  for (const item of events) await indexPullEvent(kv, log, item, ["g1"], 0);
  return await listOpenPulls(kv, "g1");
}

Deno.test("a close handled before the open keeps the pull request out, until a later reopen", async () => {
  const opened = event("pull_request", "opened", pullObject("2026-03-20T10:00:00Z"));
  const closed = event(
    "pull_request",
    "closed",
    pullObject("2026-03-20T11:00:00Z", { state: "closed" }),
  );
  const reopened = event("pull_request", "reopened", pullObject("2026-03-20T12:00:00Z"));
  const requested = event("pull_request", "review_requested", pullObject("2026-03-20T10:30:00Z"), {
    requested_reviewer: { login: "bob" },
  });
  {
    await using kv = await openTestKv();
    assert.equal((await index(kv, opened)).length, 1);
    assert.deepEqual(await index(kv, closed), []);
  }
  {
    await using kv = await openTestKv();
    // the jobs ran out of order: the close first, then older events of the same pull request
    assert.deepEqual(await index(kv, closed, opened, requested), []);
    const [back] = await index(kv, reopened);
    assert.equal(back?.number, 7);
    assert.equal(back.updatedAt, Date.parse("2026-03-20T12:00:00Z"));
    // an older close arriving after the reopen changes nothing
    assert.equal((await index(kv, closed)).length, 1);
  }
  {
    await using kv = await openTestKv();
    // a close and an open event of the same second: the close wins
    const sameSecond = event("pull_request", "opened", pullObject("2026-03-20T11:00:00Z"));
    assert.deepEqual(await index(kv, closed, sameSecond), []);
  }
});

Deno.test("a review submitted by a team member follows GitHub's requests after the review", async () => {
  await using kv = await openTestKv();
  const requested = event(
    "pull_request",
    "review_requested",
    pullObject("2026-03-20T10:00:00Z", {
      requested_reviewers: [{ login: "alice" }, { login: "dave" }],
      requested_teams: [{ slug: "core" }, { slug: "infra" }],
    }),
    { requested_team: { slug: "infra" } },
  );
  let [entry] = await index(kv, requested);
  assert.deepEqual(entry.teams, ["octo/core", "octo/infra"]);
  // dave (in octo/core) reviews: GitHub drops his request and the team's
  const byMember = event(
    "pull_request_review",
    "submitted",
    pullObject("2026-03-20T11:00:00Z", {
      requested_reviewers: [{ login: "alice" }],
      requested_teams: [{ slug: "infra" }],
    }),
    { review: { user: { login: "dave" }, state: "approved" } },
  );
  [entry] = await index(kv, byMember);
  assert.deepEqual(entry.reviewers, ["alice"]);
  assert.deepEqual(entry.teams, ["octo/infra"]);
  // a payload without the request lists: the reviewer's own request goes, the rest is kept
  const { requested_reviewers: _r, requested_teams: _t, ...bare } = pullObject(
    "2026-03-20T12:00:00Z",
  );
  const byAlice = event("pull_request_review", "submitted", bare, {
    review: { user: { login: "alice" }, state: "commented" },
  });
  [entry] = await index(kv, byAlice);
  assert.deepEqual(entry.reviewers, []);
  assert.deepEqual(entry.teams, ["octo/infra"]);
  assert.equal(entry.updatedAt, Date.parse("2026-03-20T12:00:00Z"));
});

Deno.test("a refresh read before a close does not bring the closed pull request back", async () => {
  await using kv = await openTestKv();
  assert.ok(await applyPullChange(kv, "g1", { kind: "open", pull: pull(1_000, ["alice"], []) }));
  assert.ok(
    await applyPullChange(kv, "g1", {
      kind: "closed",
      repository: REPO,
      number: 7,
      updatedAt: 2_000,
    }),
  );
  // GitHub's list, read just before the close, still shows it open
  let before = await readRepositoryPulls(kv, "g1", REPO);
  await replaceRepositoryPulls(kv, "g1", before, [pull(1_500, ["alice"], [])], true, 5_000);
  assert.deepEqual(await listOpenPulls(kv, "g1"), []);
  // reopened since (later activity than the close): GitHub's list brings it back
  before = await readRepositoryPulls(kv, "g1", REPO);
  await replaceRepositoryPulls(kv, "g1", before, [pull(3_000, ["alice"], [])], true, 6_000);
  assert.equal((await listOpenPulls(kv, "g1"))[0]?.updatedAt, 3_000);
});
