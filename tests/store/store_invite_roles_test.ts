/**
 * An invite grants only the roles an invite may carry (admin, viewer), whatever its stored
 * record says: a record changed to grant `owner` is not an invite.
 */
import assert from "node:assert/strict";
import { acceptInvite, createInvite } from "../../lib/store/config/invites.ts";
import { getGroup, putGroup } from "../../lib/store/config/groups.ts";
import { inviteKey } from "../../lib/store/keys.ts";
import { openTestKv } from "../../testing/test_store.ts";

const OWNER = { userId: "1", login: "olga" };
const EVE = { userId: "5", login: "eve" };

Deno.test("an invite record changed to grant owner is refused as invalid, and the group is unchanged", async () => {
  await using kv = await openTestKv();
  await putGroup(kv, { id: "web", name: "Web", members: [{ ...OWNER, role: "owner" }] });
  const invite = await createInvite(kv, { groupId: "web", role: "viewer", createdBy: OWNER });
  assert.ok(invite);
  await kv.set(inviteKey(invite.token), { ...invite, role: "owner" });

  assert.deepEqual(await acceptInvite(kv, invite.token, EVE), { ok: false, reason: "invalid" });
  assert.deepEqual((await getGroup(kv, "web"))?.members, [{ ...OWNER, role: "owner" }]);
});
