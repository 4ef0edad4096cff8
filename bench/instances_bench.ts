/**
 * Several instances on one store: `deno run -A bench/instances_bench.ts [--store postgres|kv]
 * [--changes 5] [--events 20]`.
 *
 * Instances are app servers (`main.ts` with the start task's V8 flags) on 127.0.0.1, sharing a
 * fresh PostgreSQL database on this machine (bench/_load.ts) or a KV file; Discord is a fake in
 * this process. Three figures:
 *
 * - **Route change**: instance A is the app in this process (its admin API saves the routes,
 *   as an operator's console would; it runs no job worker), instance B a server process, the
 *   only one routing. A custom event route sends to one channel; A's admin API switches it to
 *   another, `--changes` times back and forth. Meanwhile a probe event is sent to B's
 *   `/webhook` every {@link PROBE_GAP_MS} ms; the delay of a change is from A's 200 to the
 *   acceptance of the first probe from which on B delivered every probe to the new channel.
 * - **Takeover**: instance A starts alone with a Discord that accepts connections and never
 *   answers; `--events` events sent to A are fanned out and A's worker holds their lane, its
 *   send hanging. Then B starts (with the real fake Discord), and once B is healthy A is killed
 *   with SIGKILL. The figure is from the kill to the last of the events' messages reaching
 *   Discord, sent by B once A's leases ran out.
 * - **Takeover, worst case**: the same, but A's Discord answers 429 (retry after 2 s), so A
 *   keeps the lane and renews its lease while it waits; B starts, and A is killed the moment
 *   the store shows a renewal, with the whole lease still to run.
 *
 * Prints a table, then one result line per figure (see bench/README.md).
 */
import { parseArgs } from "node:util";
import type { Hono } from "hono";
import { createApp } from "../lib/app.ts";
import { loadConfig } from "../lib/config.ts";
import { utf8 } from "../lib/encoding.ts";
import { createLogger } from "../lib/log.ts";
import { signCustomBody } from "../lib/providers/custom.ts";
import { allowTargets } from "../lib/store/config/allowed_targets.ts";
import { putGroup } from "../lib/store/config/groups.ts";
import { closeStore, openStore } from "../lib/store/kv.ts";
import type { Kv } from "../lib/store/backend/types.ts";
import { getLaneRun } from "../lib/store/delivery/lanes.ts";
import { laneKeyFor } from "../lib/target_ref.ts";
import { replaceRoutes } from "../lib/store/config/routes.ts";
import { createSession } from "../lib/store/auth/sessions.ts";
import type { Route, Target } from "../lib/types.ts";
import { type FakeChat, startFakeDiscord } from "../testing/fake_chat.ts";
import type { TestPostgres } from "../testing/postgres.ts";
import { startV8Flags } from "../testing/start_flags.ts";
import { benchDatabase } from "./_load.ts";
import { type BenchResult, printResults } from "./result.ts";
import { freePort } from "./_process.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const SECRET = "bench-instances-secret";
const GROUP = "team";
const OWNER = { userId: "1", login: "owner" };
/** The two Discord channels the route switches between. */
const CHANNELS = ["610", "620"] as const;
const targetOf = (channelId: string): Target => ({ platform: "discord", channelId });
/** Time between two probes sent to B. */
const PROBE_GAP_MS = 20;
/** How long probes run after a change before the next one. */
const AFTER_CHANGE_MS = 2_000;
/** The longest a figure may take before the run gives up. */
const GIVE_UP_MS = 120_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function routeTo(channelId: string): Route {
  return {
    id: "watch",
    name: "watch",
    enabled: true,
    groupId: GROUP,
    filters: [{ type: "event", value: "custom" }],
    targets: [targetOf(channelId)],
  };
}

/** A server process of the app. */
interface Instance {
  url: string;
  child: Deno.ChildProcess;
}

async function startInstance(store: Record<string, string>, discordUrl: string) {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...startV8Flags(), `${ROOT}main.ts`],
    cwd: ROOT,
    env: {
      ...store,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      CUSTOM_WEBHOOK_SECRET: SECRET,
      DISCORD_BOT_TOKEN: "bench-token",
      DISCORD_API_URL: discordUrl,
      LOG_LEVEL: "error",
    },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const healthy = await fetch(`${url}/health`).then(async (response) => {
      await response.body?.cancel();
      return response.ok;
    }, () => false);
    if (healthy) return { url, child } satisfies Instance;
    await sleep(20);
  }
  child.kill("SIGKILL");
  throw new Error("an instance did not start");
}

async function stopInstance(instance: Instance, signal: Deno.Signal = "SIGTERM") {
  try {
    instance.child.kill(signal);
  } catch {
    // already exited
  }
  await instance.child.status;
}

/** Sends a custom event titled `title` to an instance; true when it was accepted. */
async function sendEvent(instance: Instance, title: string): Promise<boolean> {
  const body = utf8(JSON.stringify({ message: { title } }));
  const response = await fetch(`${instance.url}/webhook`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-switchyard-signature": await signCustomBody(SECRET, body),
    },
  });
  await response.body?.cancel();
  return response.ok;
}

function titlesIn(fake: FakeChat, channel: string): Set<string> {
  return new Set(
    fake.received.filter((message) => message.chat === channel)
      .map((message) => (message.body.embeds as { title: string }[])[0].title),
  );
}

/** Writes the group, its allowed channels, the route to the first channel and a session. */
async function prepareStore(store: Record<string, string>): Promise<string> {
  const kv = await openStore(loadConfig(store));
  try {
    await putGroup(kv, { id: GROUP, name: GROUP, members: [{ ...OWNER, role: "owner" }] });
    const allowed = await allowTargets(kv, GROUP, CHANNELS.map(targetOf), OWNER, "admin");
    if (!allowed.ok) throw new Error("cannot allow the channels");
    if (!(await replaceRoutes(kv, [routeTo(CHANNELS[0])])).ok) throw new Error("no routes");
    const { sessionId } = await createSession(kv, OWNER);
    return `switchyard_session=${sessionId}`;
  } finally {
    await closeStore(kv);
  }
}

/**
 * Saves the route to `channel` through A's admin API. On a KV file another process may hold
 * the file for a moment: a 503 is sent again after its `Retry-After`, as a client would.
 */
async function saveRoutes(app: Hono, cookie: string, channel: string): Promise<Response> {
  const put = () =>
    app.fetch(
      new Request(`http://localhost/admin/api/groups/${GROUP}/routes`, {
        method: "PUT",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ routes: [routeTo(channel)] }),
      }),
    );
  let response = await put();
  for (let retries = 0; response.status === 503 && retries < 5; retries++) {
    await response.body?.cancel();
    await sleep(Number(response.headers.get("retry-after") ?? 1) * 1000);
    response = await put();
  }
  return response;
}

/** Milliseconds each route change took to reach B (see the module doc). */
async function measureRouteChanges(
  store: Record<string, string>,
  changes: number,
): Promise<number[]> {
  const cookie = await prepareStore(store);
  await using fake = startFakeDiscord();
  const b = await startInstance(store, fake.url);
  const kv = await openStore(loadConfig(store));
  const app = createApp({
    kv,
    config: loadConfig(store),
    log: createLogger({ minLevel: "error", sink: () => {} }),
  });
  const delays: number[] = [];
  const accepted = new Map<string, number>();
  let probing = true;
  let sequence = 0;
  const prober = (async () => {
    while (probing) {
      const title = `probe-${sequence++}`;
      if (await sendEvent(b, title)) accepted.set(title, Date.now());
      await sleep(PROBE_GAP_MS);
    }
  })();
  try {
    await sleep(AFTER_CHANGE_MS);
    for (let change = 1; change <= changes; change++) {
      const channel = CHANNELS[change % 2];
      const response = await saveRoutes(app, cookie, channel);
      const savedAt = Date.now();
      if (response.status !== 200) throw new Error(`saving answered ${response.status}`);
      await response.body?.cancel();
      await sleep(AFTER_CHANGE_MS);
      // Every probe accepted by now must have been delivered before it is judged.
      const sent = [...accepted].filter(([, at]) => at >= savedAt - AFTER_CHANGE_MS);
      const deadline = Date.now() + GIVE_UP_MS;
      const delivered = () => {
        const all = new Set([
          ...titlesIn(fake, CHANNELS[0]),
          ...titlesIn(fake, CHANNELS[1]),
        ]);
        return sent.every(([title]) => all.has(title));
      };
      while (!delivered() && Date.now() < deadline) await sleep(50);
      // Deliver jobs run concurrently, so probes near the switch may be routed out of their
      // order of acceptance: the change counts from the first probe after the last one that
      // still went to the old channel. A probe accepted just before the save may be routed
      // after it: then 0.
      const onNew = titlesIn(fake, channel);
      const lastOld = Math.max(0, ...sent.filter(([title]) => !onNew.has(title)).map(([, a]) => a));
      const first = Math.min(...sent.filter(([, at]) => at > lastOld).map(([, at]) => at));
      if (!Number.isFinite(first)) throw new Error(`change ${change}: no probe was routed by it`);
      delays.push(Math.max(0, first - savedAt));
    }
  } finally {
    probing = false;
    await prober;
    await stopInstance(b);
    await closeStore(kv);
  }
  return delays;
}

/** A TCP server that accepts connections and never answers: a platform that hangs. */
function startBlackHole(): { url: string; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const connection of listener) held.push(connection);
    } catch {
      // closed
    }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    close() {
      for (const connection of held) connection.close();
      listener.close();
    },
  };
}

/** How A holds the lane when it is killed (see the module doc). */
type TakeoverCase = "hanging" | "renewed";

/** The lease of the lane to the route's first channel, as the store holds it (0: none). */
async function leaseUntilOf(kv: Kv): Promise<number> {
  return (await getLaneRun(kv, laneKeyFor(targetOf(CHANNELS[0])))).value?.leaseUntil ?? 0;
}

/**
 * Waits until A renews its lease of the lane (its `leaseUntil` moves on) and answers at once,
 * with the time the renewed lease has left.
 */
async function awaitRenewal(store: Record<string, string>): Promise<number> {
  const kv = await openStore(loadConfig(store));
  try {
    const first = await leaseUntilOf(kv);
    const deadline = Date.now() + GIVE_UP_MS;
    while (Date.now() < deadline) {
      const leaseUntil = await leaseUntilOf(kv);
      if (first > 0 && leaseUntil > first) return leaseUntil - Date.now();
      await sleep(10);
    }
    throw new Error("A never renewed its lease");
  } finally {
    await closeStore(kv);
  }
}

/**
 * Milliseconds from killing an instance that holds a lane to B delivering all of it, and how
 * long A's lease still ran at the kill.
 */
async function measureTakeover(
  store: Record<string, string>,
  events: number,
  takeover: TakeoverCase,
): Promise<{ ms: number; leaseLeftMs: number | null }> {
  await prepareStore(store);
  await using fake = startFakeDiscord();
  await using throttling = startFakeDiscord();
  throttling.script(
    CHANNELS[0],
    Array.from({ length: 40 }, () => ({
      status: 429,
      body: { message: "You are being rate limited.", retry_after: 2, global: false },
    })),
  );
  const hole = startBlackHole();
  const a = await startInstance(store, takeover === "hanging" ? hole.url : throttling.url);
  let b: Instance | undefined;
  try {
    const titles = Array.from({ length: events }, (_, i) => `held-${i}`);
    for (const title of titles) {
      if (!(await sendEvent(a, title))) throw new Error("A refused an event");
    }
    await sleep(1_000); // A fans them out and its worker hangs on (or keeps retrying) the first
    b = await startInstance(store, fake.url);
    const leaseLeftMs = takeover === "renewed" ? await awaitRenewal(store) : null;
    const killedAt = Date.now();
    await stopInstance(a, "SIGKILL");
    const channel = CHANNELS[0];
    const deadline = killedAt + GIVE_UP_MS;
    while (Date.now() < deadline) {
      const delivered = titlesIn(fake, channel);
      if (titles.every((title) => delivered.has(title))) {
        return { ms: Date.now() - killedAt, leaseLeftMs };
      }
      await sleep(50);
    }
    throw new Error(`B did not deliver A's held events within ${GIVE_UP_MS / 1000} s`);
  } finally {
    await stopInstance(a, "SIGKILL");
    if (b) await stopInstance(b);
    hole.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      store: { type: "string", default: "postgres" },
      changes: { type: "string", default: "5" },
      events: { type: "string", default: "20" },
    },
  });
  const onPostgres = values.store === "postgres";
  const dir = await Deno.makeTempDir({ prefix: "switchyard-bench-" });
  const databases: TestPostgres[] = [];
  const freshStore = async (name: string): Promise<Record<string, string>> => {
    if (!onPostgres) return { KV_PATH: `${dir}/${name}.kv` };
    const database = await benchDatabase();
    if (!database) throw new Error("no PostgreSQL: install Debian's postgresql to measure it");
    databases.push(database);
    return { DATABASE_URL: database.url };
  };
  const loadBefore = Deno.loadavg()[0];
  let delays: number[];
  let takeover: Awaited<ReturnType<typeof measureTakeover>>;
  let worst: Awaited<ReturnType<typeof measureTakeover>>;
  try {
    delays = await measureRouteChanges(await freshStore("routes"), Number(values.changes));
    const events = Number(values.events);
    takeover = await measureTakeover(await freshStore("takeover"), events, "hanging");
    worst = await measureTakeover(await freshStore("takeover-worst"), events, "renewed");
  } finally {
    for (const database of databases) await database.stop().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
  const storeName = onPostgres ? "PostgreSQL (same machine)" : "a KV file";
  const key = onPostgres ? "pg" : "kv";
  const load = Deno.loadavg().map((value) => value.toFixed(1)).join(" / ");
  console.log([
    `## Instances on ${storeName}`,
    "",
    `\`deno run -A bench/instances_bench.ts --store ${values.store}\`: load average ` +
    `${loadBefore.toFixed(1)} before and ${load} after.`,
    "",
    "| figure | value |",
    "|---|---|",
    `| route change reaching B (each of ${delays.length}, probes every ${PROBE_GAP_MS} ms) | ` +
    `${delays.map((ms) => `${ms} ms`).join(", ")} |`,
    `| route change reaching B, slowest | ${Math.max(...delays)} ms |`,
    `| killed instance's ${values.events} held events delivered by B after the kill | ` +
    `${(takeover.ms / 1000).toFixed(1)} s |`,
    `| the same, A killed right after renewing its lease (${
      ((worst.leaseLeftMs ?? 0) / 1000).toFixed(1)
    } s of it left) | ${(worst.ms / 1000).toFixed(1)} s |`,
  ].join("\n"));
  const base = { bench: "instances", store: values.store };
  printResults(
    [
      { ...base, metric: `${key}.route_change.max`, value: Math.max(...delays), unit: "ms" },
      {
        ...base,
        metric: `${key}.route_change.mean`,
        value: delays.reduce((sum, ms) => sum + ms, 0) / delays.length,
        unit: "ms",
      },
      { ...base, metric: `${key}.takeover`, value: takeover.ms / 1000, unit: "s" },
      { ...base, metric: `${key}.takeover.renewed`, value: worst.ms / 1000, unit: "s" },
    ] satisfies BenchResult[],
  );
}

await main();
