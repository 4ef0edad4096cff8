/**
 * What a deleted group leaves under its internal id and that would never expire (its open pull
 * request and issue indexes, the repositories they follow, its target health records, its
 * reminders, its audit index) is removed by the delivery sweep: only ids no current group has,
 * in bounded chunks, never the keys of a group created while the sweep runs.
 */
import assert from "node:assert/strict";
import type { Kv, KvKey } from "../../lib/store/backend/types.ts";
import { createDeliveryWorker, type DeliveryWorker } from "../../lib/delivery/worker.ts";
import { listGroupEntries, putGroup } from "../../lib/store/config/groups.ts";
import { applyGroupChanges, renameGroup } from "../../lib/store/config/group_admin.ts";
import { readGroupSet } from "../../lib/store/config/group_set.ts";
import { newAuditEntry, writeAuditEntry } from "../../lib/store/telemetry/audit.ts";
import { applyPullChange } from "../../lib/store/delivery/open_pulls.ts";
import { applyIssueChange } from "../../lib/store/delivery/open_issues.ts";
import { addHealthWrite } from "../../lib/store/delivery/target_health.ts";
import { createReminder, type Reminder } from "../../lib/store/config/reminders.ts";
import { legacyGroupKey, targetHealthKey } from "../../lib/store/keys.ts";
import { scheduleReminder } from "../../lib/delivery/reminder_jobs.ts";
import { MAX_CHECKS_PER_COMMIT } from "../../lib/store/commit_limits.ts";
import type { Group, Target } from "../../lib/types.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { captureLog, testConfig } from "../_helpers.ts";
import { commitRecordingKv } from "../_kv_commits.ts";

const OWNER = { userId: "1", login: "owner" };
const CHANNEL: Target = { platform: "telegram", chatId: "-1001" };
const NOW = Date.parse("2026-03-30T07:00:00Z");

/** The families a group's keys live in, its internal id right after the family's name. */
const FAMILIES = [
  "open_pulls",
  "closed_pulls",
  "pull_repositories",
  "pull_changes",
  "open_issues",
  "issue_repositories",
  "target_health",
  "audit_by_group",
];

function group(id: string): Group {
  return { id, name: id, members: [{ ...OWNER, role: "owner" }] };
}

async function internalIdOf(kv: Kv, groupId: string): Promise<string> {
  const entry = (await listGroupEntries(kv)).find((e) => e.group.id === groupId);
  assert.ok(entry, `group ${groupId}`);
  return entry.internalId;
}

/** Gives the group `internalId` one entry of every kind a group's use leaves behind. */
async function seed(kv: Kv, groupId: string, internalId: string): Promise<void> {
  const pull = (number: number) => ({
    repository: "octo/app",
    number,
    title: `Change ${number}`,
    url: `https://github.com/octo/app/pull/${number}`,
    author: "carol",
    createdAt: NOW - 1_000,
    draft: false,
    reviewers: ["owner"],
    teams: [],
    updatedAt: NOW - 1_000,
  });
  assert.ok(await applyPullChange(kv, internalId, { kind: "open", pull: pull(1) }));
  assert.ok(await applyPullChange(kv, internalId, { kind: "open", pull: pull(2) }));
  assert.ok(
    await applyPullChange(kv, internalId, {
      kind: "closed",
      repository: "octo/app",
      number: 2,
      updatedAt: NOW,
    }),
  );
  assert.ok(
    await applyIssueChange(kv, internalId, {
      kind: "open",
      issue: {
        repository: "octo/app",
        number: 3,
        title: "Bug",
        url: "https://github.com/octo/app/issues/3",
        createdAt: NOW - 1_000,
        updatedAt: NOW - 1_000,
        labels: [],
      },
    }),
  );
  const health = addHealthWrite(kv.atomic(), {
    internalId,
    read: { key: targetHealthKey(internalId, "telegram:-1001"), value: null, versionstamp: null },
    next: {
      groupId,
      target: CHANNEL,
      state: "failing",
      failures: 1,
      updatedAt: NOW,
    },
  });
  assert.ok((await health.commit()).ok);
  const reminder: Reminder = {
    id: `r-${groupId}`,
    scope: { kind: "channel", groupId, internalId },
    schedule: { days: [1], times: ["09:00"], timeZone: "Europe/Berlin" },
    target: CHANNEL,
    allClear: true,
    lastSlot: 0,
    createdAt: NOW,
    createdBy: OWNER,
  };
  const created = await createReminder(
    kv,
    reminder,
    10,
    (op) => scheduleReminder(op, reminder, NOW),
  );
  assert.equal(created, "created");
  await writeAuditEntry(kv, newAuditEntry({ actor: OWNER, action: "group.update", groupId }, NOW));
}

/** Deletes `groupId` as `DELETE /admin/api/groups/:id` does, with its audit entry. */
async function deleteGroup(kv: Kv, groupId: string): Promise<void> {
  const set = await readGroupSet(kv);
  const entry = set.entries.find((e) => e.group.id === groupId)!;
  const audit = newAuditEntry({ actor: OWNER, action: "group.delete", groupId }, NOW);
  const deleted = await applyGroupChanges(kv, set, [
    { kind: "delete", groupId, expected: entry.versionstamp },
  ], [audit]);
  assert.ok(deleted);
}

/** Every key and versionstamp of the families above and of reminders. */
async function groupKeys(kv: Kv): Promise<Map<string, { key: KvKey; versionstamp: string }>> {
  const found = new Map<string, { key: KvKey; versionstamp: string }>();
  for (const family of [...FAMILIES, "reminder_owners", "reminders"]) {
    for await (const entry of kv.list({ prefix: [family] })) {
      found.set(JSON.stringify(entry.key), { key: entry.key, versionstamp: entry.versionstamp });
    }
  }
  return found;
}

/** Whether `key` belongs to the group with internal id `internalId`. */
function belongsTo(key: KvKey, internalId: string, reminderIds: readonly string[]): boolean {
  if (key[0] === "reminder_owners") return key[1] === "group" && key[2] === internalId;
  if (key[0] === "reminders") return reminderIds.includes(String(key[1]));
  return key[1] === internalId;
}

function worker(kv: Kv): DeliveryWorker {
  return createDeliveryWorker({
    kv,
    config: testConfig(),
    log: captureLog().log,
    sweepEveryMs: 0,
    now: () => NOW,
  });
}

Deno.test("group cleanup: the sweep removes a deleted group's leftovers and nothing of other groups", async () => {
  await using kv = await openTestKv();
  // a group stored before internal ids: its id is its internal id
  await kv.set(legacyGroupKey("legacy"), group("legacy"));
  assert.equal(await internalIdOf(kv, "legacy"), "legacy");
  await putGroup(kv, group("gone"));
  await putGroup(kv, group("kept"));
  const gone = await internalIdOf(kv, "gone");
  const kept = await internalIdOf(kv, "kept");
  await seed(kv, "legacy", "legacy");
  await seed(kv, "gone", gone);
  await seed(kv, "kept", kept);

  await deleteGroup(kv, "gone");
  await deleteGroup(kv, "legacy");
  // created again with the same id: a new internal id, none of the old group's data
  await putGroup(kv, group("legacy"));
  const legacyAgain = await internalIdOf(kv, "legacy");
  assert.notEqual(legacyAgain, "legacy");
  await seed(kv, "legacy-again", legacyAgain);
  // a renamed group keeps its internal id and so its data
  const renamed = await renameGroup(
    kv,
    { from: "kept", to: "moved" },
    (moved) => newAuditEntry({ actor: OWNER, action: "group.rename", groupId: moved.id }, NOW),
  );
  assert.ok(renamed.ok);

  const before = await groupKeys(kv);
  const deleted = [gone, "legacy"];
  const deletedReminders = ["r-gone", "r-legacy"];
  for (const id of deleted) {
    for (const family of FAMILIES) {
      assert.ok(
        [...before.values()].some(({ key }) => key[0] === family && key[1] === id),
        `${family} of ${id} seeded`,
      );
    }
  }

  const sweeper = worker(kv);
  try {
    const report = await sweeper.sweep();
    assert.ok((report.groups ?? 0) > 0, "the sweep reports what it removed");
  } finally {
    await sweeper.close();
  }

  const after = await groupKeys(kv);
  for (const { key } of after.values()) {
    for (const id of deleted) {
      assert.ok(!belongsTo(key, id, deletedReminders), `left: ${JSON.stringify(key)}`);
    }
  }
  for (const [name, entry] of before) {
    if (deleted.some((id) => belongsTo(entry.key, id, deletedReminders))) continue;
    assert.equal(after.get(name)?.versionstamp, entry.versionstamp, `untouched: ${name}`);
  }
  for (const id of [kept, legacyAgain]) {
    assert.ok([...after.values()].some(({ key }) => key[0] === "open_pulls" && key[1] === id));
  }
});

Deno.test("group cleanup: many keys go in chunks within the commit limits, a bounded number per sweep", async () => {
  await using store = await openTestKv();
  const { kv, commits } = commitRecordingKv(store);
  await putGroup(kv, group("big"));
  await putGroup(kv, group("other"));
  const big = await internalIdOf(kv, "big");
  const other = await internalIdOf(kv, "other");
  const TOTAL = 1_200;
  for (let start = 0; start < TOTAL; start += 100) {
    const op = kv.atomic();
    for (let i = start; i < start + 100; i++) {
      op.set(targetHealthKey(big, `telegram:${i}`), { state: "failing" });
    }
    assert.ok((await op.commit()).ok);
  }
  await kv.set(targetHealthKey(other, "telegram:1"), { state: "failing" });
  await deleteGroup(kv, "big");

  const count = async (internalId: string) =>
    (await Array.fromAsync(kv.list({ prefix: ["target_health", internalId] }))).length;
  const sweeper = worker(kv);
  const removedPerSweep: number[] = [];
  try {
    commits.length = 0;
    for (let sweep = 0; sweep < 10 && await count(big) > 0; sweep++) {
      removedPerSweep.push((await sweeper.sweep()).groups ?? 0);
    }
  } finally {
    await sweeper.close();
  }
  assert.equal(await count(big), 0);
  assert.equal(await count(other), 1);
  assert.ok(removedPerSweep.length > 1, `one sweep removed everything: ${removedPerSweep}`);
  // and the audit index entry of the deletion itself
  assert.equal(removedPerSweep.reduce((a, b) => a + b, 0), TOTAL + 1);
  for (const commit of commits) {
    assert.ok(commit.checks <= MAX_CHECKS_PER_COMMIT, `${commit.checks} checks`);
    assert.ok(commit.written.length <= 1_000, `${commit.written.length} mutations`);
  }
});

Deno.test("group cleanup: a group created while the sweep runs keeps its keys", async () => {
  await using store = await openTestKv();
  await putGroup(store, group("gone"));
  const gone = await internalIdOf(store, "gone");
  await seed(store, "gone", gone);
  await deleteGroup(store, "gone");

  let fresh: string | null = null;
  // the moment the sweep first lists the open pull requests (after it read the groups), a group
  // is created and its index gets an entry: an internal id the groups the sweep read lack
  const kv = new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "list") return typeof value === "function" ? value.bind(target) : value;
      return (selector: { prefix?: KvKey }, options?: unknown) => {
        const prefix = selector.prefix;
        if (fresh === null && prefix?.length === 1 && prefix[0] === "open_pulls") {
          fresh = "pending";
          return (async function* () {
            await putGroup(target, group("fresh"));
            fresh = await internalIdOf(target, "fresh");
            await seed(target, "fresh", fresh);
            yield* target.list(selector as never, options as never);
          })();
        }
        return target.list(selector as never, options as never);
      };
    },
  }) as Kv;

  const sweeper = worker(kv);
  try {
    await sweeper.sweep();
    await sweeper.sweep();
  } finally {
    await sweeper.close();
  }
  assert.ok(fresh !== null && fresh !== "pending", "the group was created during the sweep");
  const keys = [...(await groupKeys(store)).values()].map(({ key }) => key);
  for (const family of FAMILIES) {
    assert.ok(keys.some((key) => key[0] === family && key[1] === fresh), `${family} of fresh`);
  }
  assert.ok(!keys.some((key) => belongsTo(key, gone, ["r-gone"])), "the deleted group's are gone");
});
