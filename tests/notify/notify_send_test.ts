/**
 * Personal messages (`sendPersonal` in lib/notify/send.ts): refused as not configured, with no
 * call to the platform, when it cannot send; a remembered Discord DM channel that is gone is
 * opened again.
 */
import assert from "node:assert/strict";
import { createAdapters } from "../../lib/delivery/adapters.ts";
import { sendPersonal } from "../../lib/notify/send.ts";
import type { NotifyContext } from "../../lib/notify/context.ts";
import type { HeldNotification } from "../../lib/store/notify/notify_outbox.ts";
import type { Kv } from "../../lib/store/backend/types.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { fakeDmChannelOf, startFakeDiscord } from "../../testing/fake_chat.ts";
import { getDmChannel, saveDmChannel } from "../../lib/store/notify/notify_cache.ts";
import { captureLog, testConfig } from "../_helpers.ts";

const ITEM: HeldNotification = {
  eventId: "01JQ0000000000000000000000",
  kind: "review_requested",
  reason: "Review requested from you",
  title: "Add widgets #7",
  repository: "acme/widgets",
  userId: "77",
  groupId: "alpha",
  routeId: "r1",
};

function contextOf(kv: Kv, adapters: NotifyContext["adapters"]): NotifyContext {
  return {
    kv,
    config: testConfig(),
    log: captureLog().log,
    adapters,
    windowMs: 60_000,
    gatherMs: 100,
    maxSleepMs: 50,
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

Deno.test("a personal message to a platform with no adapter, or one not configured, is refused unsent", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const notConfigured = createAdapters(testConfig({ DISCORD_API_URL: discord.url }));
  for (const adapters of [new Map(), notConfigured]) {
    const result = await sendPersonal(contextOf(kv, adapters), "discord", "400", [ITEM], false);
    assert.deepEqual(result, {
      kind: "rejected",
      httpStatus: 400,
      error: "discord is not configured",
    });
  }
  assert.deepEqual(discord.dmsOpened, []);
  assert.equal(discord.received.length, 0);
});

/** A relink notice (it needs no stored event) for `userId`. */
const RELINK: HeldNotification = { ...ITEM, kind: "relink", reason: "Link your GitHub again" };

Deno.test("a remembered DM channel Discord no longer knows is forgotten, and the message goes to one opened again", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const adapters = createAdapters(
    testConfig({ DISCORD_API_URL: discord.url, DISCORD_BOT_TOKEN: "bot-token" }),
  );
  await saveDmChannel(kv, "400", "555");
  discord.script("555", [{ status: 404, body: { message: "Unknown Channel", code: 10003 } }]);

  const result = await sendPersonal(contextOf(kv, adapters), "discord", "400", [RELINK], false);

  assert.equal(result.kind, "sent");
  assert.deepEqual(discord.dmsOpened, ["400"]);
  assert.deepEqual(discord.received.map((message) => message.chat), [fakeDmChannelOf("400")]);
  assert.equal(await getDmChannel(kv, "400"), fakeDmChannelOf("400"));
});

Deno.test("a remembered DM channel Discord refuses for another reason is kept, and nothing is opened", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const adapters = createAdapters(
    testConfig({ DISCORD_API_URL: discord.url, DISCORD_BOT_TOKEN: "bot-token" }),
  );
  await saveDmChannel(kv, "400", "555");
  discord.script("555", [{
    status: 403,
    body: { message: "Cannot send messages to this user", code: 50007 },
  }]);

  const result = await sendPersonal(contextOf(kv, adapters), "discord", "400", [RELINK], false);

  assert.equal(result.kind, "rejected");
  assert.equal(result.kind === "rejected" && result.httpStatus, 403);
  assert.deepEqual(discord.dmsOpened, []);
  assert.equal(discord.received.length, 0);
  assert.equal(await getDmChannel(kv, "400"), "555");
});
