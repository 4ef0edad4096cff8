/**
 * The delivery worker under a costly filter: a route that cannot be evaluated within its
 * group's budget does not fire (even with `ne`), is logged as not evaluated with the reason,
 * and neither its group's fallback nor another group's routes lose the event.
 */
import assert from "node:assert/strict";
import { utf8 } from "../../lib/encoding.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import type { Route } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import {
  deliveryConfig,
  discordTitles,
  runWorker,
  settled,
  storeRoutes,
} from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

function routeTo(
  id: string,
  groupId: string,
  channelId: string,
  fields: Partial<Route>,
): Route {
  return {
    id,
    name: id,
    enabled: true,
    groupId,
    filters: [],
    targets: [{ platform: "discord", channelId }],
    ...fields,
  };
}

Deno.test("a route over its group's budget is not evaluated, and the event still arrives", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  const everything = (op: "eq" | "ne", value: unknown) => ({
    type: "field" as const,
    path: "$..*",
    op,
    value,
  });
  await storeRoutes(kv, [
    routeTo("first", "noisy", "501", { filters: [everything("eq", "nope")] }),
    routeTo("second", "noisy", "502", { filters: [everything("ne", -1)] }),
    routeTo("catch-all", "noisy", "503", { fallback: true }),
    routeTo("quiet", "quiet", "504", { filters: [{ type: "field", path: "a", value: 1 }] }),
  ]);
  await using running = runWorker(kv, deliveryConfig({ discord }));

  const wide: Record<string, number> = {};
  for (let index = 0; index < 90_000; index++) wide[`k${index}`] = index;
  const outcome = await saveEvent(kv, {
    provider: "custom",
    kind: "custom",
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: utf8(JSON.stringify({ message: { title: "Wide" }, a: 1, wide })),
  });
  assert.equal(outcome.status, "accepted");
  const eventId = outcome.status === "accepted" ? outcome.eventId : "";
  const logs = await settled(kv, eventId, 2);

  assert.deepEqual(logs.map((log) => log.routeId).sort(), ["catch-all", "quiet"]);
  assert.deepEqual(discordTitles(discord, "502"), [], "a failed ne is not a match");
  assert.deepEqual(discordTitles(discord, "503"), ["Wide"]);
  assert.deepEqual(discordTitles(discord, "504"), ["Wide"]);
  const skipped = running.lines.filter((line) => line.message === "route not evaluated");
  assert.equal(skipped.length, 1, JSON.stringify(skipped));
  assert.equal(skipped[0].routeId, "second");
  assert.equal(skipped[0].groupId, "noisy");
  assert.equal(skipped[0].eventId, eventId);
  assert.match(String(skipped[0].reason), /^path \$\.\.\*: evaluation budget exceeded/);
});
