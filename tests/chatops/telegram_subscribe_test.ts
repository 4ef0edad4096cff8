/** `/gh subscribe` and `/gh unsubscribe`: chat administrators who own or administer the group. */
import assert from "node:assert/strict";
import { getAllowedTargets } from "../../lib/store/config/allowed_targets.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import {
  ALICE,
  ALICE_GITHUB,
  GROUP,
  linkUser,
  messageUpdate,
  sendUpdate,
  startTelegramWorld,
  type TelegramWorld,
  textMessage,
  textsTo,
} from "../_telegram_helpers.ts";

async function say(world: TelegramWorld, text: string, chatId = GROUP): Promise<string> {
  await sendUpdate(world.t, messageUpdate(textMessage(text, { chatId })));
  return textsTo(world.bot, chatId).at(-1)!;
}

async function allowedChats(world: TelegramWorld, groupId = "team"): Promise<string[]> {
  const { targets } = await getAllowedTargets(world.t.kv, groupId);
  return targets.map((entry) => entry.target.platform === "telegram" ? entry.target.chatId : "");
}

async function storeTeam(world: TelegramWorld, role: "owner" | "admin" | "viewer") {
  await putGroup(world.t.kv, {
    id: "team",
    name: "Team",
    members: [{ userId: String(ALICE_GITHUB.id), login: ALICE_GITHUB.login, role }],
  });
}

Deno.test("a chat administrator who owns the group subscribes the chat, then unsubscribes it", async () => {
  await using world = await startTelegramWorld();
  await storeTeam(world, "owner");
  await linkUser(world);
  world.bot.statuses.set(`${GROUP}:${ALICE}`, "administrator");
  assert.match(await say(world, "/gh subscribe team"), /^Group team may now post into this chat/);
  assert.deepEqual(await allowedChats(world), [String(GROUP)]);
  assert.deepEqual(world.bot.callsOf("getChatMember").at(-1), { chat_id: GROUP, user_id: ALICE });
  assert.match(await say(world, "/gh subscribe team"), /already may post into this chat/);
  assert.match(await say(world, "/gh unsubscribe team"), /no longer posts into this chat/);
  assert.deepEqual(await allowedChats(world), []);
});

Deno.test("refused: not a chat administrator, not linked, a viewer, a private chat, no group", async () => {
  await using world = await startTelegramWorld();
  await storeTeam(world, "viewer");
  assert.equal(
    await say(world, "/gh subscribe"),
    "Name the group: /gh subscribe <group>.",
  );
  assert.equal(
    await say(world, "/gh subscribe team"),
    "Only an administrator of this chat can subscribe it.",
  );
  world.bot.statuses.set(`${GROUP}:${ALICE}`, "creator");
  assert.equal(
    await say(world, "/gh subscribe team"),
    "Not linked: run /gh login first to link your GitHub account.",
  );
  await linkUser(world);
  assert.match(await say(world, "/gh subscribe team"), /owner or admin/);
  assert.equal(
    await say(world, "/gh subscribe team", ALICE),
    "Send /gh subscribe in the group it is for.",
  );
  assert.deepEqual(await allowedChats(world), []);
});

Deno.test("when Telegram cannot say who administers the chat, nothing changes", async () => {
  await using world = await startTelegramWorld();
  await storeTeam(world, "owner");
  await linkUser(world);
  world.bot.script("getChatMember", { status: 400, description: "Bad Request: chat not found" });
  assert.equal(
    await say(world, "/gh subscribe team"),
    "I could not check your rights in this chat; try again.",
  );
  assert.deepEqual(await allowedChats(world), []);
});
