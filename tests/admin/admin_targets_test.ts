/**
 * Target ownership through the admin API: a group's routes may post only into the channels
 * and chats on its allowlist; a super admin sets the list (and allows what they save); the
 * list follows the group through rename and is gone with it.
 */
import assert from "node:assert/strict";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { getAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import { allowTarget, ALPHA, BETA, PEOPLE, route, startAdminApp } from "../_admin_helpers.ts";

const BETA_CHANNEL = { platform: "discord", channelId: "555000" } as const;
const BETA_CHAT = { platform: "telegram", chatId: "-100777" } as const;

const refusal = (target: string, place: string) =>
  `${target} is not an allowed target of group alpha; a super admin can allow it ` +
  `(PUT /admin/api/groups/alpha/targets) or someone who manages the ${place} can claim it ` +
  "with /gh subscribe alpha";

Deno.test("targets: group A's owner cannot save a route to group B's allowed channel (400 naming it)", async () => {
  await using app = await startAdminApp();
  const allowed = await app.call("superAdmin", "PUT", "/admin/api/groups/beta/targets", {
    body: { targets: [BETA_CHANNEL, BETA_CHAT] },
  });
  assert.deepEqual(allowed.body, { ok: true, count: 2 });
  await allowTarget(app.kv, "alpha");

  const raid = route("alpha", "raid", {
    targets: [{ platform: "discord", channelId: "123456789" }, { ...BETA_CHANNEL, threadId: "9" }],
    discordRoleIds: ["4242"],
  });
  const byGroup = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes: [raid] },
  });
  assert.equal(byGroup.status, 400);
  assert.deepEqual(byGroup.body, {
    error: `routes[0].targets[1]: ${refusal("discord channel 555000", "channel")}`,
  });
  const byAll = await app.call("admin", "PUT", "/admin/api/routes", {
    body: { routes: [route("alpha", "ok"), route("alpha", "chat", { targets: [BETA_CHAT] })] },
  });
  assert.equal(byAll.status, 400);
  assert.deepEqual(byAll.body, {
    error: `routes[1].targets[0]: ${refusal("telegram chat -100777", "chat")}`,
  });
  assert.deepEqual((await getRoutes(app.kv)).routes, [], "nothing was saved");
  assert.deepEqual(
    (await getAllowedTargets(app.kv, "alpha")).targets.map((entry) => entry.target),
    [{ platform: "discord", channelId: "123456789" }],
    "a refused save allows nothing",
  );
});

Deno.test("targets: a super admin's save allows the targets it names, each allowance audited", async () => {
  await using app = await startAdminApp();
  await app.call("superAdmin", "PUT", "/admin/api/groups/beta/targets", {
    body: { targets: [BETA_CHANNEL] },
  });
  const saved = await app.call("superAdmin", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes: [route("alpha", "shared", { targets: [BETA_CHANNEL] })] },
  });
  assert.deepEqual(saved.body, { ok: true, count: 1 });

  const listed = await app.call("viewer", "GET", "/admin/api/groups/alpha/targets");
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.refused, []);
  assert.equal(listed.body.targets.length, 1);
  const [entry] = listed.body.targets;
  assert.deepEqual(entry.target, BETA_CHANNEL);
  assert.deepEqual(entry.allowedBy, PEOPLE.superAdmin);
  assert.equal(entry.via, "routes");
  assert.equal(
    (await getAllowedTargets(app.kv, "beta")).targets.length,
    1,
    "the target stays beta's too: only a super admin shares targets",
  );
  const actions = (await listAuditEntries(app.kv, { groupId: "alpha" })).map((e) => e.action);
  assert.deepEqual(actions, ["routes.replace", "targets.allow"]);

  const again = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes: [route("alpha", "shared", { name: "Now alpha's", targets: [BETA_CHANNEL] })] },
  });
  assert.deepEqual(again.body, { ok: true, count: 1 }, "the owner may now use it");
});

Deno.test("targets: only a super admin sets the list; GET shows why a route's target is refused", async () => {
  await using app = await startAdminApp();
  await replaceRoutes(app.kv, [
    route("alpha", "r1"),
    route("alpha", "r2", { targets: [{ platform: "telegram", chatId: "-100123", topicId: 4 }] }),
  ]);
  for (const caller of ["owner", "admin", "otherOwner"] as const) {
    const refused = await app.call(caller, "PUT", "/admin/api/groups/alpha/targets", {
      body: { targets: [BETA_CHANNEL] },
    });
    assert.equal(refused.status, 403, caller);
  }
  assert.deepEqual(
    (await app.call("superAdmin", "PUT", "/admin/api/groups/nope/targets", {
      body: { targets: [] },
    })).status,
    404,
  );

  const read = await app.call("viewer", "GET", "/admin/api/groups/alpha/targets");
  assert.deepEqual(read.body.targets, []);
  assert.deepEqual(read.body.refused.map((r: { routeId: string }) => r.routeId), ["r1", "r2"]);
  assert.equal(read.body.refused[1].reason, refusal("telegram chat -100123", "chat"));

  const etag = read.headers.get("etag")!;
  const put = await app.call("superAdmin", "PUT", "/admin/api/groups/alpha/targets", {
    body: { targets: [{ platform: "telegram", chatId: -100123 }] },
    headers: { "if-match": etag },
  });
  assert.deepEqual(put.body, { ok: true, count: 1 });
  const stale = await app.call("superAdmin", "PUT", "/admin/api/groups/alpha/targets", {
    body: { targets: [] },
    headers: { "if-match": etag },
  });
  assert.equal(stale.status, 409);
  const duplicate = await app.call("superAdmin", "PUT", "/admin/api/groups/alpha/targets", {
    body: { targets: [BETA_CHAT, { platform: "telegram", chatId: "-0100777" }] },
  });
  assert.deepEqual(duplicate.body, { error: "targets[1]: the same target as targets[0]" });

  const after = await app.call("viewer", "GET", "/admin/api/groups/alpha/targets");
  assert.deepEqual(after.body.targets.map((e: { target: unknown }) => e.target), [
    { platform: "telegram", chatId: "-100123" },
  ]);
  assert.deepEqual(after.body.refused.map((r: { routeId: string }) => r.routeId), ["r1"]);
  const [audit] = await listAuditEntries(app.kv, { groupId: "alpha" });
  assert.equal(audit.action, "targets.replace");
  assert.deepEqual(audit.actor, PEOPLE.superAdmin);
  assert.deepEqual(audit.detail, { added: ["telegram chat -100123"], removed: [] });
});

Deno.test("targets: routes saved unchanged are not checked again; changed ones are", async () => {
  await using app = await startAdminApp();
  await replaceRoutes(app.kv, [route("alpha", "old")]);
  const kept = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes: [route("alpha", "old")] },
  });
  assert.deepEqual(kept.body, { ok: true, count: 1 });
  const changed = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: { routes: [route("alpha", "old", { enabled: false })] },
  });
  assert.equal(changed.status, 400);
  assert.match(changed.body.error, /^routes\[0\]\.targets\[0\]: discord channel 123456789 is not/);
});

Deno.test("targets: the list follows a rename and goes with a deleted group", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  const renamed = await app.call("owner", "PUT", "/admin/api/groups/alpha/rename", {
    body: { newId: "alpha-2" },
  });
  assert.equal(renamed.status, 200);
  assert.equal((await getAllowedTargets(app.kv, "alpha")).targets.length, 0);
  assert.equal((await getAllowedTargets(app.kv, "alpha-2")).targets.length, 1);

  const dropped = await app.call("superAdmin", "PUT", "/admin/api/groups", {
    body: { groups: [BETA] },
  });
  assert.equal(dropped.status, 200);
  assert.equal((await getAllowedTargets(app.kv, "alpha-2")).versionstamp, null);
  const recreated = await app.call("superAdmin", "PUT", "/admin/api/groups", {
    body: { groups: [BETA, { ...ALPHA, id: "alpha-2" }] },
  });
  assert.equal(recreated.status, 200);
  assert.deepEqual((await getAllowedTargets(app.kv, "alpha-2")).targets, [], "not inherited");
});

Deno.test("targets: ids written as numbers or numeric strings are saved canonical and match the list", async () => {
  await using app = await startAdminApp();
  const allowed = await app.call("superAdmin", "PUT", "/admin/api/groups/alpha/targets", {
    body: {
      targets: [{ platform: "discord", channelId: "77" }, {
        platform: "telegram",
        chatId: -100123,
      }],
    },
  });
  assert.deepEqual(allowed.body, { ok: true, count: 2 });
  const saved = await app.call("owner", "PUT", "/admin/api/groups/alpha/routes", {
    body: {
      routes: [route("alpha", "hand-written", {
        discordRoleIds: [55 as unknown as string],
        targets: [
          { platform: "discord", channelId: 77 as unknown as string, threadId: "078" },
          { platform: "telegram", chatId: "-100123", topicId: "9" as unknown as number },
        ],
      })],
    },
  });
  assert.deepEqual(saved.body, { ok: true, count: 1 });
  const [stored] = (await getRoutes(app.kv)).routes;
  assert.deepEqual(stored.targets, [
    { platform: "discord", channelId: "77", threadId: "78" },
    { platform: "telegram", chatId: "-100123", topicId: 9 },
  ]);
  assert.deepEqual(stored.discordRoleIds, ["55"]);
  const listed = await app.call("viewer", "GET", "/admin/api/groups/alpha/routes");
  assert.deepEqual(listed.body.routes[0].targets, stored.targets);
});
