/**
 * The allowlist holds every target a valid route set can name: its cap is derived from the
 * route limits (routes per instance × targets per route), and a list that large is stored,
 * read, replaced, moved with a rename, cleared with its group and seen by claims like any
 * other.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { MAX_ALLOWED_TARGETS, MAX_ROUTES, MAX_TARGETS } from "../../lib/limits.ts";
import {
  allowTargets,
  getAllowedTargets,
  isTargetAllowed,
} from "../../lib/store/config/allowed_targets.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { allowedTargetsPrefix } from "../../lib/store/keys.ts";
import { claimTarget } from "../../lib/store/config/target_claims.ts";
import type { Target } from "../../lib/types.ts";
import { BETA, PEOPLE, route, startAdminApp } from "../_admin_helpers.ts";

/** The Discord channel numbered `n`, distinct for every `n`. */
function channel(n: number): Target {
  return { platform: "discord", channelId: String(300_000_000_000_000_000n + BigInt(n)) };
}

/** The targets on a group's list, as stored. */
async function allowedOf(kv: Kv, groupId: string): Promise<Target[]> {
  return (await getAllowedTargets(kv, groupId)).targets.map((entry) => entry.target);
}

/** How many keys the allowlists of `groupId` occupy. */
async function allowlistKeys(kv: Kv, groupId: string): Promise<number> {
  let count = 0;
  for await (const entry of kv.list({ prefix: allowedTargetsPrefix() })) {
    if (entry.key[1] === groupId) count++;
  }
  return count;
}

Deno.test("targets limits: a save of 200 routes, each with its own channel, succeeds and allows them all", async () => {
  await using app = await startAdminApp();
  const earlier = Array.from({ length: 20 }, (_, n) => channel(10_000 + n));
  assert.ok((await allowTargets(app.kv, "alpha", earlier, PEOPLE.superAdmin, "admin")).ok);
  const routes = Array.from(
    { length: MAX_ROUTES },
    (_, n) => route("alpha", `r${n}`, { targets: [channel(n)] }),
  );
  const saved = await app.call("superAdmin", "PUT", "/admin/api/routes", { body: { routes } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.deepEqual(saved.body, { ok: true, count: MAX_ROUTES });
  const allowed = await allowedOf(app.kv, "alpha");
  assert.deepEqual(allowed, [...earlier, ...routes.map((r) => r.targets[0])]);
  for (const r of routes) assert.ok(await isTargetAllowed(app.kv, "alpha", r.targets[0]));
});

Deno.test("targets limits: the cap covers the largest route set, which is saved, listed, moved and cleared", async () => {
  assert.ok(MAX_ALLOWED_TARGETS >= MAX_ROUTES * MAX_TARGETS);
  await using app = await startAdminApp();
  const routes = Array.from({ length: MAX_ROUTES }, (_, n) =>
    route("alpha", `r${n}`, {
      targets: Array.from({ length: MAX_TARGETS }, (_, t) => channel(n * MAX_TARGETS + t)),
    }));
  const everyTarget = routes.flatMap((r) => r.targets);
  const saved = await app.call("superAdmin", "PUT", "/admin/api/routes", { body: { routes } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.deepEqual(await allowedOf(app.kv, "alpha"), everyTarget);
  assert.ok(await isTargetAllowed(app.kv, "alpha", everyTarget.at(-1)!));

  const [allow] = (await listAuditEntries(app.kv, { groupId: "alpha" })).filter((entry) =>
    entry.action === "targets.allow"
  );
  assert.equal((allow.detail!.added as string[]).length, 100, "the entry lists the first 100");
  assert.equal(allow.detail!.addedMore, everyTarget.length - 100);

  const listed = await app.call("superAdmin", "GET", "/admin/api/groups/alpha/targets");
  assert.equal(listed.status, 200);
  assert.equal(listed.body.targets.length, everyTarget.length);
  const kept = everyTarget.slice(5);
  const replaced = await app.call("superAdmin", "PUT", "/admin/api/groups/alpha/targets", {
    body: { targets: kept },
  });
  assert.deepEqual(replaced.body, { ok: true, count: kept.length });
  assert.deepEqual(await allowedOf(app.kv, "alpha"), kept);
  assert.equal(await isTargetAllowed(app.kv, "alpha", everyTarget[0]), false);

  const exported = await app.call("superAdmin", "GET", "/admin/api/config/export");
  const imported = await app.call("superAdmin", "POST", "/admin/api/config/import", {
    body: exported.body,
  });
  assert.equal(imported.status, 200, JSON.stringify(imported.body));
  const afterImport = [...kept, ...everyTarget.slice(0, 5)];
  assert.deepEqual(
    await allowedOf(app.kv, "alpha"),
    afterImport,
    "an import writes the whole list, with its routes' targets",
  );

  const claim = await claimTarget(app.kv, "beta", everyTarget.at(-1)!, PEOPLE.otherOwner);
  assert.equal(claim.ok ? "claimed" : claim.reason, "taken", "a target far down the list counts");

  const fewer = await app.call("superAdmin", "PUT", "/admin/api/routes", {
    body: { routes: routes.slice(-1) },
  });
  assert.equal(fewer.status, 200, "a rename copies the routes first, so it needs room for them");
  assert.deepEqual(await allowedOf(app.kv, "alpha"), afterImport, "the list stays as it was");
  const renamed = await app.call("owner", "PUT", "/admin/api/groups/alpha/rename", {
    body: { newId: "alpha-2" },
  });
  assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  assert.deepEqual(await allowedOf(app.kv, "alpha-2"), afterImport);
  assert.equal(await allowlistKeys(app.kv, "alpha"), 0, "nothing is left under the old id");

  const dropped = await app.call("superAdmin", "PUT", "/admin/api/groups", {
    body: { groups: [BETA] },
  });
  assert.equal(dropped.status, 200, JSON.stringify(dropped.body));
  assert.equal(await allowlistKeys(app.kv, "alpha-2"), 0, "a deleted group's list is gone");
});
