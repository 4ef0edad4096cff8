/**
 * Claiming a target from inside it (`claimChatTarget`, called by the chat commands once the
 * platform confirmed the claimer manages the channel or chat): only for a group the claimer
 * edits, never for a target another group has, audited in the same write.
 */
import assert from "node:assert/strict";
import {
  getAllowedTargets,
  replaceAllowedTargets,
} from "../../lib/store/config/allowed_targets.ts";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { claimChatTarget } from "../../lib/chatops/target_claims.ts";
import { ALPHA, BETA, PEOPLE } from "../_admin_helpers.ts";
import { openTestKv, type TestKv } from "../../testing/test_store.ts";

async function groups(): Promise<TestKv> {
  const kv = await openTestKv();
  await putGroup(kv, ALPHA);
  await putGroup(kv, BETA);
  return kv;
}

Deno.test("claims: an owner or admin claims a channel (a thread claims its channel), audited", async () => {
  await using kv = await groups();
  const claimed = await claimChatTarget(
    kv,
    "alpha",
    { platform: "discord", channelId: "700", threadId: "701" },
    PEOPLE.admin,
  );
  assert.deepEqual(claimed, {
    ok: true,
    target: { platform: "discord", channelId: "700" },
    added: true,
  });
  const [entry] = (await getAllowedTargets(kv, "alpha")).targets;
  assert.deepEqual(entry.target, { platform: "discord", channelId: "700" });
  assert.equal(entry.via, "claim");
  assert.deepEqual(entry.allowedBy, PEOPLE.admin);
  const [audit] = await listAuditEntries(kv, { groupId: "alpha" });
  assert.equal(audit.action, "targets.claim");
  assert.equal(audit.target, "discord channel 700");
  assert.deepEqual(audit.actor, PEOPLE.admin);

  const again = await claimChatTarget(
    kv,
    "alpha",
    { platform: "discord", channelId: 700 },
    PEOPLE.owner,
  );
  assert.deepEqual(again, {
    ok: true,
    target: { platform: "discord", channelId: "700" },
    added: false,
  });
  assert.equal((await listAuditEntries(kv)).length, 1, "claiming it again writes nothing");
});

Deno.test("claims: refused for a viewer, an outsider, an unknown group or a bad id", async () => {
  await using kv = await groups();
  const chat = { platform: "telegram", chatId: -100555 };
  const viewer = await claimChatTarget(kv, "alpha", chat, PEOPLE.viewer);
  assert.equal(viewer.ok || viewer.reason, "not_editor");
  const outsider = await claimChatTarget(kv, "alpha", chat, PEOPLE.otherOwner);
  assert.equal(outsider.ok || outsider.reason, "not_editor");
  const unknown = await claimChatTarget(kv, "gamma", chat, PEOPLE.owner);
  assert.equal(unknown.ok || unknown.reason, "unknown_group");
  const huge = await claimChatTarget(kv, "x".repeat(3000), chat, PEOPLE.owner);
  assert.equal(huge.ok || huge.reason, "unknown_group");
  const bad = await claimChatTarget(
    kv,
    "alpha",
    { platform: "telegram", chatId: "chat" },
    PEOPLE.owner,
  );
  assert.equal(bad.ok || bad.reason, "invalid_target");
  assert.deepEqual((await getAllowedTargets(kv, "alpha")).targets, []);
  assert.deepEqual(await listAuditEntries(kv), []);
});

Deno.test("claims: a target another group has cannot be claimed; a super admin may share it", async () => {
  await using kv = await groups();
  const taken = await claimChatTarget(kv, "beta", { platform: "telegram", chatId: "-100555" }, {
    userId: PEOPLE.otherOwner.userId,
    login: PEOPLE.otherOwner.login,
  });
  assert.equal(taken.ok, true);
  const claim = await claimChatTarget(
    kv,
    "alpha",
    { platform: "telegram", chatId: -100555, topicId: 3 },
    PEOPLE.owner,
  );
  assert.deepEqual(claim, {
    ok: false,
    reason: "taken",
    message: "telegram chat -100555 is already allowed for another group; only a super admin " +
      "can allow a target for several groups.",
  });
  assert.deepEqual((await getAllowedTargets(kv, "alpha")).targets, []);

  const shared = await replaceAllowedTargets(
    kv,
    "alpha",
    [{ platform: "telegram", chatId: "-100555" }],
    PEOPLE.superAdmin,
  );
  assert.equal(shared.ok, true);
  assert.equal((await getAllowedTargets(kv, "beta")).targets.length, 1);
  assert.equal((await getAllowedTargets(kv, "alpha")).targets.length, 1);
});

Deno.test("claims: two groups claiming one target at once: exactly one gets it", async () => {
  await using kv = await groups();
  for (let round = 0; round < 20; round++) {
    const chat = { platform: "telegram", chatId: `-100${round + 1}` };
    const results = await Promise.all([
      claimChatTarget(kv, "alpha", chat, PEOPLE.owner),
      claimChatTarget(kv, "beta", chat, PEOPLE.otherOwner),
    ]);
    assert.deepEqual(results.map((result) => result.ok).sort(), [false, true], `round ${round}`);
  }
  const alpha = (await getAllowedTargets(kv, "alpha")).targets.length;
  const beta = (await getAllowedTargets(kv, "beta")).targets.length;
  assert.equal(alpha + beta, 20);
});
