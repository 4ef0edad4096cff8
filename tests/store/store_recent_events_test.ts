/**
 * The events this process has just accepted reach its fan-out without a second read: the
 * parsed payload is handed over once, equal to what the store holds, and an event pushed out
 * of the cache, or accepted without a parsed payload, is read from the store as before.
 */
import assert from "node:assert/strict";
import type { Kv } from "../../lib/store/backend/types.ts";
import { loadEvent, loadEvents, saveEvent } from "../../lib/store/delivery/events.ts";
import { RECENT_EVENTS_KEPT } from "../../lib/store/delivery/recent_events.ts";
import { fixture, githubRequest, send, testDeps, withKv } from "../_ingest_helpers.ts";
import { readCountingKv } from "../_kv_commits.ts";

async function acceptPull(kv: Kv, delivery: string): Promise<void> {
  const body = await fixture("pull_request/opened.payload.json");
  const answer = await send(testDeps(kv), await githubRequest(body, { delivery }));
  assert.equal(answer.status, 200);
}

async function eventIds(kv: Kv): Promise<string[]> {
  const ids: string[] = [];
  for await (const entry of kv.list({ prefix: ["events"] })) ids.push(String(entry.key[1]));
  return ids;
}

Deno.test("an event accepted here reaches the fan-out without reading the store, equal to the stored one", async () => {
  await withKv(async (store) => {
    const { kv, reads } = readCountingKv(store);
    await acceptPull(kv, "recent-1");
    const [eventId] = await eventIds(store);
    const before = reads();
    const handed = (await loadEvents(kv, [eventId])).get(eventId)!;
    assert.equal(reads(), before, "no read for an event accepted here");
    assert.ok("event" in handed && handed.event);
    const stored = (await loadEvents(kv, [eventId])).get(eventId)!;
    assert.ok(reads() > before, "handed over once: the second load reads the store");
    assert.deepEqual(handed, stored);
    assert.equal("inline" in (stored as { event: object }).event, false);
    assert.equal(handed.event.deliveryId, "recent-1");
    assert.equal(handed.payloadBytes, (await fixture("pull_request/opened.payload.json")).length);
  });
});

Deno.test("a single event load takes the accepted event once too", async () => {
  await withKv(async (store) => {
    const { kv, reads } = readCountingKv(store);
    await acceptPull(kv, "recent-single");
    const [eventId] = await eventIds(store);
    const before = reads();
    const handed = await loadEvent(kv, eventId);
    assert.equal(reads(), before);
    assert.deepEqual(handed, await loadEvent(kv, eventId));
    assert.ok(reads() > before);
  });
});

Deno.test("events pushed out of the cache, or saved without a parsed payload, are read from the store", async () => {
  await withKv(async (store) => {
    const { kv, reads } = readCountingKv(store);
    for (let i = 0; i <= RECENT_EVENTS_KEPT; i++) await acceptPull(kv, `burst-${i}`);
    const ids = await eventIds(store);
    assert.equal(ids.length, RECENT_EVENTS_KEPT + 1);
    const oldest = ids[0];
    let before = reads();
    const loaded = (await loadEvents(kv, [oldest])).get(oldest)!;
    assert.ok(reads() > before, "the oldest was pushed out");
    assert.ok("event" in loaded && loaded.event?.deliveryId === "burst-0");
    before = reads();
    const newest = ids.at(-1)!;
    assert.ok("event" in (await loadEvents(kv, [newest])).get(newest)!);
    assert.equal(reads(), before, "the newest is still kept");

    const saved = await saveEvent(kv, {
      provider: "github",
      kind: "push",
      deliveryId: "no-payload",
      scope: { type: "global" },
      receivedAt: Date.now(),
      headers: {},
      body: new TextEncoder().encode('{"ref":"refs/heads/main"}'),
    });
    assert.equal(saved.status, "accepted");
    const id = (saved as { eventId: string }).eventId;
    before = reads();
    assert.deepEqual((await loadEvent(kv, id))?.payload, { ref: "refs/heads/main" });
    assert.ok(reads() > before);
  });
});
