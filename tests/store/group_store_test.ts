/**
 * The group set: internal ids, the move of groups stored before group sets, whole-set
 * replacements that readers see all or nothing of, and the version every write checks.
 */
import assert from "node:assert/strict";
import type { AuditEntry } from "../../lib/store/telemetry/audit.ts";
import { applyGroupChanges, renameGroup } from "../../lib/store/config/group_admin.ts";
import { readGroupSet, readGroupSetCached } from "../../lib/store/config/group_set.ts";
import { getGroup, listGroupEntries, listGroups, putGroup } from "../../lib/store/config/groups.ts";
import {
  groupsPointerKey,
  legacyGroupKey,
  routeSetsPendingPrefix,
  routesPointerKey,
} from "../../lib/store/keys.ts";
import { countOutcome, readMetrics } from "../../lib/store/telemetry/metrics.ts";
import { listSendLogs, putSendLog } from "../../lib/store/delivery/send_logs.ts";
import type { Group } from "../../lib/types.ts";
import { ALPHA, PEOPLE, sendLog } from "../_admin_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { MAX_CHECKS_PER_COMMIT } from "../../lib/store/commit_limits.ts";
import {
  createInvite,
  getInviteEntry,
  listInvites,
  revokeInvite,
} from "../../lib/store/config/invites.ts";
import { getGroupSecret, regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { allowTargets, getAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import type { Route } from "../../lib/types.ts";
import {
  commitInterceptingKv,
  commitRecordingKv,
  holdsKey,
  readCountingKv,
} from "../_kv_commits.ts";

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

Deno.test("a rename of a group with many invites, routes and targets commits at most 10 checks at a time, and all of it moves", async () => {
  await using store = await openTestKv();
  const members = Array.from({ length: 12 }, (_, i) => ({
    userId: String(100 + i),
    login: `member${i}`,
    role: "viewer" as const,
  }));
  await putGroup(store, { ...group("crowd"), members: [...group("crowd").members, ...members] });
  const targets = Array.from({ length: 12 }, (_, i) => ({
    platform: "discord" as const,
    channelId: String(700 + i),
  }));
  assert.ok((await allowTargets(store, "crowd", targets, PEOPLE.owner, "admin")).ok);
  const routes: Route[] = targets.map((target, i) => ({
    id: `route-${i}`,
    name: `route ${i}`,
    enabled: true,
    groupId: "crowd",
    filters: [{ type: "event", value: "push" }],
    targets: [target],
  }));
  assert.ok((await replaceRoutes(store, routes)).ok);
  await regenerateGroupSecret(store, "crowd");
  const tokens = new Set<string>();
  for (let i = 0; i < 12; i++) {
    const invite = await createInvite(store, {
      groupId: "crowd",
      role: "viewer",
      createdBy: PEOPLE.owner,
    });
    tokens.add(invite!.token);
  }

  const { kv, commits } = commitRecordingKv(store);
  const renamed = await renameGroup(kv, { from: "crowd", to: "throng" }, renameAudit);
  assert.equal(renamed.ok, true);
  const checks = commits.map((commit) => commit.checks);
  assert.ok(
    Math.max(...checks) <= MAX_CHECKS_PER_COMMIT,
    `checks per commit: ${checks.join(", ")}`,
  );

  assert.equal(await getGroup(store, "crowd"), null);
  assert.deepEqual((await getGroup(store, "throng"))?.members.length, 13);
  const moved = await listInvites(store, "throng");
  assert.deepEqual(new Set(moved.map((invite) => invite.token)), tokens);
  assert.ok(moved.every((invite) => invite.groupId === "throng"));
  assert.deepEqual(await listInvites(store, "crowd"), []);
  assert.deepEqual(
    (await getRoutes(store)).routes,
    routes.map((route) => ({ ...route, groupId: "throng" })),
  );
  assert.equal((await getAllowedTargets(store, "throng")).targets.length, 12);
  assert.equal((await getAllowedTargets(store, "crowd")).targets.length, 0);
  assert.ok(await getGroupSecret(store, "throng"));
  assert.equal(await getGroupSecret(store, "crowd"), null);
});

Deno.test("an invite revoked while a rename reads the group is not brought back under the new id", async () => {
  await using store = await openTestKv();
  await putGroup(store, group("crowd"));
  const kept = await createInvite(store, {
    groupId: "crowd",
    role: "viewer",
    createdBy: PEOPLE.owner,
  });
  const revoked = await createInvite(store, {
    groupId: "crowd",
    role: "admin",
    createdBy: PEOPLE.owner,
  });
  let revokedMidway = false;
  // The move's commit (the one that deletes fragments under the new id) runs after the revoke.
  const kv = commitInterceptingKv(store, async (written) => {
    const moving = written.some((key) => String(key[0]) === "fragments");
    if (!moving || revokedMidway) return;
    revokedMidway = true;
    const entry = await getInviteEntry(store, revoked!.token);
    assert.ok(entry && await revokeInvite(store, entry, PEOPLE.owner));
  });
  const renamed = await renameGroup(kv, { from: "crowd", to: "throng" }, renameAudit);
  assert.equal(renamed.ok, true);
  assert.ok(revokedMidway);
  assert.deepEqual((await listInvites(store, "throng")).map((invite) => invite.token), [
    kept!.token,
  ]);
  assert.equal(await getInviteEntry(store, revoked!.token), null);
});

Deno.test("the cached group set is reused while unchanged and read again after any group write", async () => {
  await using store = await openTestKv();
  const { kv, reads } = readCountingKv(store);

  await putGroup(kv, { ...ALPHA, id: "alpha", name: "Alpha" });
  const first = await readGroupSetCached(kv);
  const listsAfterFirst = reads("list");
  const second = await readGroupSetCached(kv);
  assert.equal(reads("list"), listsAfterFirst, "an unchanged set is not listed again");
  assert.equal(second, first);
  await putGroup(kv, { ...ALPHA, id: "beta", name: "Beta" });
  const third = await readGroupSetCached(kv);
  assert.ok(reads("list") > listsAfterFirst);
  assert.deepEqual(third.entries.map((entry) => entry.group.id), ["alpha", "beta"]);
  assert.deepEqual(third, await readGroupSet(kv));
});

Deno.test("a rename of a group with 199 of 200 routes moves routes and group in one commit within the limits", async () => {
  await using store = await openTestKv();
  await putGroup(store, group("crowd"));
  await putGroup(store, group("other"));
  const routes: Route[] = Array.from({ length: 199 }, (_, i) => ({
    id: `route-${i}`,
    name: `route ${i}`,
    enabled: true,
    groupId: "crowd",
    filters: [{ type: "event", value: "push" }],
    targets: [{ platform: "discord", channelId: "700" }],
  }));
  const other: Route = { ...routes[0], id: "kept", groupId: "other" };
  assert.ok((await replaceRoutes(store, [other, ...routes])).ok);

  const { kv, commits } = commitRecordingKv(store);
  const renamed = await renameGroup(kv, { from: "crowd", to: "throng" }, renameAudit);
  assert.deepEqual(renamed.ok && renamed.routes, 199);
  const switches = commits.filter((commit) =>
    holdsKey(commit.written, routesPointerKey()) && holdsKey(commit.written, groupsPointerKey())
  );
  assert.equal(switches.length, 1, "routes and group switch together");
  for (const commit of commits) {
    assert.ok(commit.checks <= MAX_CHECKS_PER_COMMIT, `checks: ${commit.checks}`);
    assert.ok(commit.written.length <= 1000, `mutations: ${commit.written.length}`);
  }
  assert.deepEqual(
    (await getRoutes(store)).routes,
    [other, ...routes.map((route) => ({ ...route, groupId: "throng" }))],
  );
  assert.equal(await getGroup(store, "crowd"), null);
  assert.ok(await getGroup(store, "throng"));
});

Deno.test("a rename whose switch never commits leaves the group, its routes and secret under the old id", async () => {
  await using store = await openTestKv();
  await putGroup(store, group("crowd"));
  const routes: Route[] = [{
    id: "r1",
    name: "r1",
    enabled: true,
    groupId: "crowd",
    filters: [{ type: "event", value: "push" }],
    targets: [{ platform: "discord", channelId: "700" }],
  }];
  assert.ok((await replaceRoutes(store, routes)).ok);
  await regenerateGroupSecret(store, "crowd");
  // Every commit that would switch the route set fails, as if another write always came first.
  const kv = commitInterceptingKv(
    store,
    (written) => Promise.resolve(!holdsKey(written, routesPointerKey())),
  );
  const renamed = await renameGroup(kv, { from: "crowd", to: "throng" }, renameAudit);
  assert.deepEqual(renamed, { ok: false, reason: "conflict" });
  assert.ok(await getGroup(store, "crowd"));
  assert.equal(await getGroup(store, "throng"), null);
  assert.deepEqual((await getRoutes(store)).routes, routes);
  assert.ok(await getGroupSecret(store, "crowd"));
  assert.equal(await getGroupSecret(store, "throng"), null);
  const pending = await Array.fromAsync(store.list({ prefix: routeSetsPendingPrefix() }));
  assert.deepEqual(pending, [], "the unused route sets are deleted");
});
