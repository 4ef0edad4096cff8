/**
 * The issue and pull request indexes when a change cannot be written: a change that keeps
 * losing the race is tried five times and then refused, and the event's indexing logs a
 * warning for each group instead of failing; a full index leaves the entry out with a warning.
 */
import assert from "node:assert/strict";
import type { AtomicOperation, Kv } from "../../lib/store/backend/types.ts";
import { applyIssueChange, type OpenIssue } from "../../lib/store/delivery/open_issues.ts";
import {
  applyPullChange,
  MAX_PULLS_PER_REPOSITORY,
  type OpenPull,
} from "../../lib/store/delivery/open_pulls.ts";
import { indexIssueEvent } from "../../lib/delivery/issue_index.ts";
import { indexPullEvent } from "../../lib/delivery/pull_index.ts";
import type { ForgeEvent } from "../../lib/types.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { captureLog } from "../_helpers.ts";

const REPO = "octo/app";

/** `kv` whose commits always fail (another write always won), counting the attempts. */
function losingKv(kv: Kv): { kv: Kv; attempts: () => number } {
  let commits = 0;
  const losing = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "atomic") return typeof value === "function" ? value.bind(target) : value;
      return () =>
        new Proxy(target.atomic(), {
          get(op, name, chained) {
            const method = Reflect.get(op, name, op);
            if (name === "commit") {
              return () => {
                commits++;
                return Promise.resolve({ ok: false });
              };
            }
            if (typeof method !== "function") return method;
            return (...args: unknown[]) => {
              method.apply(op, args);
              return chained;
            };
          },
        }) as AtomicOperation;
    },
  });
  return { kv: losing, attempts: () => commits };
}

function issue(number: number): OpenIssue {
  return {
    repository: REPO,
    number,
    title: `Work ${number}`,
    url: `https://github.com/${REPO}/issues/${number}`,
    createdAt: 1,
    updatedAt: 1_000,
    labels: [],
  };
}

/** Pull request `number`, with the fields it shares with an issue taken from {@link issue}. */
function pull(number: number): OpenPull {
  const url = `https://github.com/${REPO}/pull/${number}`;
  return { ...issue(number), url, author: "carol", draft: false, reviewers: [], teams: [] };
}

function event(kind: string, key: string, value: Record<string, unknown>): ForgeEvent {
  return {
    id: `e-${kind}`,
    provider: "github",
    kind,
    action: "opened",
    scope: { type: "group", groupId: "team" },
    receivedAt: 0,
    headers: {},
    payload: { action: "opened", repository: { full_name: REPO }, [key]: value },
  };
}

const ISSUE_EVENT = event("issues", "issue", {
  number: 500,
  title: "New",
  html_url: `https://github.com/${REPO}/issues/500`,
  created_at: "2026-03-20T10:00:00Z",
  updated_at: "2026-03-20T10:00:00Z",
  state: "open",
});

const PULL_EVENT = event("pull_request", "pull_request", {
  number: 500,
  title: "New",
  html_url: `https://github.com/${REPO}/pull/500`,
  user: { login: "carol" },
  created_at: "2026-03-20T10:00:00Z",
  updated_at: "2026-03-20T10:00:00Z",
  state: "open",
  draft: false,
  requested_reviewers: [],
  requested_teams: [],
});

Deno.test("index changes that keep losing the race are tried five times, then refused", async () => {
  await using store = await openTestKv();
  const issues = losingKv(store);
  await assert.rejects(
    applyIssueChange(issues.kv, "g1", { kind: "open", issue: issue(1) }),
    { message: "the issue changed too often to update its entry" },
  );
  assert.equal(issues.attempts(), 5);
  const pulls = losingKv(store);
  await assert.rejects(
    applyPullChange(pulls.kv, "g1", { kind: "open", pull: pull(1) }),
    { message: "the pull request changed too often to update its entry" },
  );
  assert.equal(pulls.attempts(), 5);
});

Deno.test("an event's index change that fails is logged for each group and never thrown", async () => {
  await using store = await openTestKv();
  const { kv } = losingKv(store);
  const { log, lines } = captureLog();
  await indexIssueEvent(kv, log, ISSUE_EVENT, ["g1", "g2", "g1"]);
  await indexPullEvent(kv, log, PULL_EVENT, ["g1", "g2", "g1"], 0);
  const warnings = lines.map((line) => [line.level, line.message, line.eventId]);
  assert.deepEqual(warnings, [
    ["warn", "issue index not updated", "e-issues"],
    ["warn", "issue index not updated", "e-issues"],
    ["warn", "pull request index not updated", "e-pull_request"],
    ["warn", "pull request index not updated", "e-pull_request"],
  ]);
});

Deno.test("an event's new entry in a full index is left out with a warning", async () => {
  await using kv = await openTestKv();
  // 200 entries fill one repository of either index.
  for (let number = 1; number <= MAX_PULLS_PER_REPOSITORY; number++) {
    assert.ok(await applyIssueChange(kv, "g1", { kind: "open", issue: issue(number) }));
    assert.ok(await applyPullChange(kv, "g1", { kind: "open", pull: pull(number) }));
  }
  const { log, lines } = captureLog();
  await indexIssueEvent(kv, log, ISSUE_EVENT, ["g1"]);
  await indexPullEvent(kv, log, PULL_EVENT, ["g1"], 0);
  const warnings = lines.map((line) => [line.level, line.message, line.eventId]);
  assert.deepEqual(warnings, [
    ["warn", "issue index full; entry left out", "e-issues"],
    ["warn", "pull request index full; entry left out", "e-pull_request"],
  ]);
});
