/**
 * The group set: internal ids, the move of groups stored before group sets, whole-set
 * replacements that readers see all or nothing of, and the version every write checks.
 */
import assert from "node:assert/strict";
import type { AuditEntry } from "../../lib/store/telemetry/audit.ts";
import { applyGroupChanges, renameGroup } from "../../lib/store/config/group_admin.ts";
import { readGroupSet } from "../../lib/store/config/group_set.ts";
import { getGroup, listGroupEntries, listGroups, putGroup } from "../../lib/store/config/groups.ts";
import { legacyGroupKey } from "../../lib/store/keys.ts";
import { countOutcome, readMetrics } from "../../lib/store/telemetry/metrics.ts";
import { listSendLogs, putSendLog } from "../../lib/store/delivery/send_logs.ts";
import type { Group } from "../../lib/types.ts";
import { ALPHA, PEOPLE, sendLog } from "../_admin_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const DAY = 24 * 60 * 60 * 1000;

function group(id: string): Group {
  return { id, name: id, members: [{ ...PEOPLE.owner, role: "owner" }] };
}

const renameAudit = (moved: Group): AuditEntry => ({
  id: `audit-${moved.id}`,
  at: Date.now(),
  actor: PEOPLE.owner,
  action: "group.rename",
  groupId: moved.id,
});

Deno.test("every group gets its own internal id; a replaced group keeps it", async () => {
  await using kv = await openTestKv();
  await putGroup(kv, group("one"));
  await putGroup(kv, group("two"));
  const [one, two] = await listGroupEntries(kv);
  assert.match(one.internalId, /^#[0-9A-Z]{26}$/);
  assert.notEqual(one.internalId, two.internalId);
  await putGroup(kv, { ...group("one"), name: "One" });
  const [again] = await listGroupEntries(kv);
  assert.equal(again.group.name, "One");
  assert.equal(again.internalId, one.internalId);
});

Deno.test("groups stored before group sets move into one and keep their history", async () => {
  await using kv = await openTestKv();
  await kv.set(legacyGroupKey("legacy"), group("legacy"));
  const at = Date.now();
  const log = sendLog(at, { groupId: "legacy" });
  await countOutcome(putSendLog(kv.atomic(), log, null, DAY), log, at).commit();

  const entries = await listGroupEntries(kv);
  assert.deepEqual(entries.map(({ group, internalId }) => ({ group, internalId })), [
    { group: group("legacy"), internalId: "legacy" },
  ]);
  assert.equal((await kv.get(legacyGroupKey("legacy"))).value, null);
  assert.deepEqual((await listSendLogs(kv, { groupId: "legacy" })).items, [log]);
  assert.equal((await readMetrics(kv, { groupIds: ["legacy"] })).totals.total, 1);

  const renamed = await renameGroup(kv, { from: "legacy", to: "modern" }, renameAudit);
  assert.equal(renamed.ok, true);
  await putGroup(kv, group("legacy"));
  assert.deepEqual((await listSendLogs(kv, { groupId: "modern" })).items, [log]);
  assert.equal((await readMetrics(kv, { groupIds: ["modern"] })).totals.total, 1);
  assert.deepEqual((await listSendLogs(kv, { groupId: "legacy" })).items, []);
  assert.equal((await readMetrics(kv, { groupIds: ["legacy"] })).totals.total, 0);
});

Deno.test("readers see the old group set or the new one while 100 groups are replaced by 100 others", async () => {
  await using kv = await openTestKv();
  const before = Array.from({ length: 100 }, (_, i) => group(`old-${String(i).padStart(3, "0")}`));
  const after = Array.from({ length: 100 }, (_, i) => group(`new-${String(i).padStart(3, "0")}`));
  for (const g of before) await putGroup(kv, g);
  const set = await readGroupSet(kv);
  let done = false;
  const seen = new Set<string>();
  const reader = (async () => {
    while (!done) {
      const ids = (await listGroups(kv)).map((g) => g.id).join(",");
      seen.add(ids);
    }
  })();
  const ok = await applyGroupChanges(kv, set, [
    ...set.entries.map((entry) => ({
      kind: "delete" as const,
      groupId: entry.group.id,
      expected: entry.versionstamp,
    })),
    ...after.map((g) => ({ kind: "create" as const, group: g })),
  ], []);
  done = true;
  await reader;
  assert.equal(ok, true);
  const expected = new Set([before, after].map((gs) => gs.map((g) => g.id).join(",")));
  for (const ids of seen) assert.ok(expected.has(ids), "a reader saw a mix of both sets");
  assert.deepEqual(await listGroups(kv), after);
});

Deno.test("a group write after the set was read makes a replacement a conflict that changes nothing", async () => {
  await using kv = await openTestKv();
  await putGroup(kv, ALPHA);
  const set = await readGroupSet(kv);
  await putGroup(kv, group("other"));
  const ok = await applyGroupChanges(kv, set, [{ kind: "create", group: group("late") }], []);
  assert.equal(ok, false);
  assert.equal(await getGroup(kv, "late"), null);
  assert.deepEqual((await listGroups(kv)).map((g) => g.id), ["alpha", "other"]);
});
