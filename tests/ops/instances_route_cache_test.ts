/**
 * The route cache of every instance sees a saved change within a second. Instance A is the
 * app in this process (its admin API saves the routes); instance B is a delivery instance in
 * its own process on the same store (testing/delivery_instance.ts): a KV file, where KV's watch
 * does not reach, so B sees the change through its poll of the route pointer; or, with
 * `TEST_STORE=postgres`, one PostgreSQL database, where each instance has its own pool and B's
 * watch hears the change by LISTEN/NOTIFY. B keeps accepting
 * probe events while the change travels: each goes to the old channel or the new one, the
 * switch happens once, and every probe accepted a second or more after the save goes to the
 * new channel. A second test runs both instances in this process on two handles of the store.
 */
import assert from "node:assert/strict";
import { allowTargets } from "../../lib/store/config/allowed_targets.ts";
import { createSession } from "../../lib/store/auth/sessions.ts";
import type { Target } from "../../lib/types.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import { startInstance } from "../../testing/instances.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  OPERATOR,
  runWorker,
  storeRoutes,
  waitFor,
} from "../_delivery_helpers.ts";
import type { TestApp } from "../_helpers.ts";
import { instanceStore, sharedStore, startInstanceApp } from "../_instances_helpers.ts";

const OLD: Target = { platform: "discord", channelId: "610" };
const NEW: Target = { platform: "discord", channelId: "620" };
/** How soon every instance must route by a saved change. */
const WITHIN_MS = 1_000;
const PROBE_GAP_MS = 100;

/** Stores the `watch` route to OLD, allows NEW too, and answers the owner's session cookie. */
async function prepare(a: TestApp): Promise<string> {
  await storeRoutes(a.kv, [customRoute("watch", [OLD])]);
  assert.ok((await allowTargets(a.kv, "team", [NEW], OPERATOR, "admin")).ok);
  const { sessionId } = await createSession(a.kv, { userId: "1", login: "owner" });
  return `switchyard_session=${sessionId}`;
}

/**
 * Saves the `watch` route to NEW through instance A's admin API; answers when it was saved. The
 * other handle may hold the file for a moment: a 503 is sent again after its `Retry-After`, as
 * a client would.
 */
async function saveNewRoutes(a: TestApp, cookie: string): Promise<number> {
  const put = () =>
    a.fetch("/admin/api/groups/team/routes", {
      method: "PUT",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ routes: [customRoute("watch", [NEW])] }),
    });
  let res = await put();
  for (let retries = 0; res.status === 503 && retries < 5; retries++) {
    await res.body?.cancel();
    await new Promise((resolve) =>
      setTimeout(resolve, Number(res.headers.get("retry-after")) * 1000)
    );
    res = await put();
  }
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual(await res.json(), { ok: true, count: 1 });
  return Date.now();
}

/** A probe: its title and when it was accepted (Unix ms). */
interface Probe {
  title: string;
  acceptedAt: number;
}

/**
 * Accepts probes through `accept` until one accepted `WITHIN_MS` after `savedAt` (the bound
 * of the guarantee) has been accepted; answers them all.
 */
async function probe(
  accept: (title: string) => Promise<unknown>,
  savedAt: number,
): Promise<Probe[]> {
  const probes: Probe[] = [];
  for (let index = 0; (probes.at(-1)?.acceptedAt ?? 0) < savedAt + WITHIN_MS; index++) {
    const title = `Probe ${index}`;
    const acceptedAt = Date.now();
    await accept(title);
    probes.push({ title, acceptedAt });
    await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
  }
  return probes;
}

/** Checks where the probes went: each once, the switch once, all late ones to NEW. */
function assertSwitched(
  probes: Probe[],
  oldTitles: string[],
  newTitles: string[],
  savedAt: number,
): void {
  const destinations = probes.map(({ title }) => {
    const count = oldTitles.filter((t) => t === title).length +
      newTitles.filter((t) => t === title).length;
    assert.equal(count, 1, `${title} arrived once`);
    return newTitles.includes(title) ? "new" : "old";
  });
  const firstNew = destinations.indexOf("new");
  assert.ok(firstNew !== -1, "the change arrived");
  assert.ok(destinations.slice(firstNew).every((d) => d === "new"), "the cache switched once");
  for (const [index, { title, acceptedAt }] of probes.entries()) {
    if (acceptedAt >= savedAt + WITHIN_MS) {
      assert.equal(destinations[index], "new", `${title}, accepted a second after the save`);
    }
  }
}

Deno.test("a delivery instance in another process routes by a change saved through instance A within a second", async () => {
  await using store = await sharedStore();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await using a = await startInstanceApp(store);
  const cookie = await prepare(a);
  const b = startInstance({
    ...instanceStore(store),
    discordUrl: discord.url,
    telegramUrl: telegram.url,
  });
  try {
    await b.ready;
    await b.accept("Before");
    await waitFor("B to deliver by the old routes", () => discordTitles(discord).length === 1);
    assert.deepEqual(discordTitles(discord, OLD.channelId), ["Before"]);

    const savedAt = await saveNewRoutes(a, cookie);
    const probes = await probe((title) => b.accept(title), savedAt);
    await waitFor(
      "every probe to arrive",
      () => discordTitles(discord).length === probes.length + 1,
    );
    assertSwitched(
      probes,
      discordTitles(discord, OLD.channelId),
      discordTitles(discord, NEW.channelId),
      savedAt,
    );
  } catch (error) {
    console.error(b.stderr().slice(-3000));
    throw error;
  } finally {
    await b.stop();
  }
});

Deno.test("two instances in one process on two handles of one store: B routes by A's saved change within a second", async () => {
  await using store = await sharedStore();
  await using discord = startFakeDiscord();
  await using a = await startInstanceApp(store);
  const cookie = await prepare(a);
  const kvB = await store.open();
  {
    await using _worker = runWorker(kvB, deliveryConfig({ discord }));
    await acceptCustom(kvB, "Before");
    await waitFor("B to deliver by the old routes", () => discordTitles(discord).length === 1);
    assert.deepEqual(discordTitles(discord, OLD.channelId), ["Before"]);

    const savedAt = await saveNewRoutes(a, cookie);
    const probes = await probe((title) => acceptCustom(kvB, title), savedAt);
    await waitFor(
      "every probe to arrive",
      () => discordTitles(discord).length === probes.length + 1,
    );
    assertSwitched(
      probes,
      discordTitles(discord, OLD.channelId),
      discordTitles(discord, NEW.channelId),
      savedAt,
    );
  }
});
