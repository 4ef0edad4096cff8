import type { Kv } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { retryTransient } from "../../lib/store/transient.ts";
import { createLogger } from "../../lib/log.ts";
import { claimTelegramUpdate } from "../../lib/store/auth/telegram_updates.ts";
import {
  messageUpdate,
  postUpdate,
  sendUpdate,
  startTelegramWorld,
  textMessage,
} from "../_telegram_helpers.ts";

const log = createLogger({ minLevel: "error" });
const claim = (kv: Kv, id: number) =>
  retryTransient(log, "claim", () => claimTelegramUpdate(kv, id));

Deno.test("a Telegram update is taken once, even by two instances on one store", async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  const first = await Deno.openKv(path);
  const second = await Deno.openKv(path);
  try {
    const claims = await Promise.all([
      claim(first, 41),
      claim(second, 41),
    ]);
    assert.deepEqual(claims.toSorted(), [false, true]);
    assert.equal(await claim(second, 41), false);
    assert.equal(await claim(first, 42), true);
  } finally {
    first.close();
    second.close();
    await Deno.remove(path);
  }
});

Deno.test("update claims are written only for requests carrying the webhook secret", async () => {
  await using world = await startTelegramWorld();
  const claims = async () =>
    (await Array.fromAsync(world.t.kv.list({ prefix: ["telegram_updates"] }))).length;
  for (let i = 0; i < 50; i++) {
    const update = { ...messageUpdate(textMessage("/gh help")), update_id: 10_000 + i };
    const res = await postUpdate(world.t, update, i % 2 ? "wrong" : null);
    assert.equal(res.status, 401);
    await res.body?.cancel();
  }
  assert.equal(await claims(), 0, "anonymous requests claim nothing");
  await sendUpdate(world.t, { ...messageUpdate(textMessage("/gh help")), update_id: 20_000 });
  assert.equal(await claims(), 1);
});
