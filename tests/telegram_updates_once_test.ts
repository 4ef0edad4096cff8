import assert from "node:assert/strict";
import { retryTransient } from "../lib/store/transient.ts";
import { createLogger } from "../lib/log.ts";
import { claimTelegramUpdate } from "../lib/store/telegram_updates.ts";

const log = createLogger({ minLevel: "error" });
const claim = (kv: Deno.Kv, id: number) =>
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
