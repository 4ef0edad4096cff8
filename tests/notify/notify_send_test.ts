/**
 * A personal message to a platform that cannot send (`sendPersonal` in lib/notify/send.ts):
 * refused as not configured, with no call to the platform.
 */
import assert from "node:assert/strict";
import { createAdapters } from "../../lib/delivery/adapters.ts";
import { sendPersonal } from "../../lib/notify/send.ts";
import type { NotifyContext } from "../../lib/notify/context.ts";
import type { HeldNotification } from "../../lib/store/notify/notify_outbox.ts";
import type { Kv } from "../../lib/store/backend/types.ts";
import { openTestKv } from "../../testing/test_store.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
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
