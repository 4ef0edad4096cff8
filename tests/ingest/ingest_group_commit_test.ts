/**
 * Group commit of accepted events: concurrent accepts share one commit, each answered only
 * after it; a delivery id or nonce repeated inside a batch gives one new event and one
 * duplicate; a failed batch commit falls back to commits of their own, so nothing is lost
 * or acknowledged without its commit.
 */
import type { AtomicOperation, Kv, KvKey } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { type NewEvent, saveEvent } from "../../lib/store/delivery/events.ts";
import { GroupCommit, MAX_BATCH_EVENTS } from "../../lib/store/delivery/group_commit.ts";
import { loadEvent } from "../../lib/store/delivery/events.ts";
import type { JobRecord } from "../../lib/store/delivery/jobs.ts";
import { openTestKv } from "../../testing/test_store.ts";

const encoder = new TextEncoder();

function newEvent(deliveryId: string | undefined, extra: Partial<NewEvent> = {}): NewEvent {
  return {
    provider: "github",
    kind: "push",
    deliveryId,
    scope: { type: "global" },
    receivedAt: Date.now(),
    headers: {},
    body: encoder.encode(JSON.stringify({ ref: "refs/heads/main", deliveryId })),
    ...extra,
  };
}

interface CommitLog {
  /** How many events (named by its deliver jobs) each commit attempted to hold. */
  sizes: number[];
  /** How many deliver jobs each commit added. */
  jobs: number[];
  /** How many checks each commit held. */
  checks: number[];
}

/** How many events a deliver job names: a batch job lists them, a single-event job has one. */
function eventsOfJob(job: unknown): number {
  const ids = (job as { eventIds?: unknown }).eventIds;
  return Array.isArray(ids) ? ids.length : 1;
}

/** A KV whose commits are logged, and fail (throw) when `failWhen` says so. */
function loggedKv(kv: Kv, failWhen: (events: number) => boolean = () => false) {
  const log: CommitLog = { sizes: [], jobs: [], checks: [] };
  const wrapped = new Proxy(kv, {
    get(target, property) {
      if (property !== "atomic") {
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => {
        const op = target.atomic();
        let events = 0;
        let jobs = 0;
        let checks = 0;
        const logged: AtomicOperation = new Proxy(op, {
          get(opTarget, name) {
            const value = Reflect.get(opTarget, name, opTarget);
            if (typeof value !== "function") return value;
            return (...args: unknown[]) => {
              if (name === "set" && (args[0] as KvKey)[0] === "jobs") {
                events += eventsOfJob((args[1] as JobRecord).message);
                jobs++;
              }
              if (name === "check") checks += args.length;
              if (name === "commit") {
                log.sizes.push(events);
                log.jobs.push(jobs);
                log.checks.push(checks);
                if (failWhen(events)) return Promise.reject(new Error("disk full"));
              }
              const result = value.apply(opTarget, args);
              return result === opTarget ? logged : result;
            };
          },
        });
        return logged;
      };
    },
  });
  return { kv: wrapped as Kv, log };
}

async function countEvents(kv: Kv): Promise<number> {
  let count = 0;
  for await (const _ of kv.list({ prefix: ["events"] })) count++;
  return count;
}

Deno.test("group commit: concurrent accepts share one commit, each stored whole", async () => {
  await using store = await openTestKv();
  const { kv, log } = loggedKv(store);
  const group = new GroupCommit(kv, { windowMs: 5 });
  const outcomes = await Promise.all(
    Array.from({ length: 6 }, (_, index) => group.save(newEvent(`d-${index}`))),
  );
  assert.deepEqual(outcomes.map((outcome) => outcome.status), Array(6).fill("accepted"));
  assert.deepEqual(log.sizes, [6]);
  assert.deepEqual(log.jobs, [1], "one deliver job names the whole batch");
  for (const outcome of outcomes) {
    if (outcome.status !== "accepted") continue;
    const event = await loadEvent(store, outcome.eventId);
    assert.equal(event?.payload.ref, "refs/heads/main");
  }
  store.close();
});

Deno.test("group commit: a batch never holds more than the most events one commit allows", async () => {
  await using store = await openTestKv();
  const { kv, log } = loggedKv(store);
  const group = new GroupCommit(kv, { windowMs: 5 });
  const count = MAX_BATCH_EVENTS * 2 + 3;
  const outcomes = await Promise.all(
    Array.from({ length: count }, (_, index) => group.save(newEvent(`d-${index}`))),
  );
  assert.equal(outcomes.filter((outcome) => outcome.status === "accepted").length, count);
  assert.ok(Math.max(...log.sizes) <= MAX_BATCH_EVENTS);
  assert.equal(await countEvents(store), count);
  store.close();
});

Deno.test("group commit: a batch holds at most 10 checks (a denokv server's limit)", async () => {
  await using store = await openTestKv();
  const { kv, log } = loggedKv(store);
  const group = new GroupCommit(kv, { windowMs: 5 });
  const count = 40;
  const outcomes = await Promise.all(
    Array.from(
      { length: count },
      (_, index) => group.save(newEvent(`d-${index}`, { nonce: `n-${index}` })),
    ),
  );
  assert.equal(outcomes.filter((outcome) => outcome.status === "accepted").length, count);
  assert.ok(Math.max(...log.sizes) > 1, "events still share commits");
  assert.ok(Math.max(...log.checks) <= 10, `checks per commit: ${log.checks.join(", ")}`);
  assert.equal(await countEvents(store), count);
  store.close();
});

Deno.test("group commit: the same delivery id twice in one batch is one new, one duplicate", async () => {
  await using store = await openTestKv();
  const group = new GroupCommit(store, { windowMs: 5 });
  const [first, other, second] = await Promise.all([
    group.save(newEvent("same")),
    group.save(newEvent("other")),
    group.save(newEvent("same")),
  ]);
  assert.equal(first.status, "accepted");
  assert.equal(other.status, "accepted");
  assert.equal(second.status, "duplicate");
  assert.equal(
    second.status === "duplicate" && second.eventId,
    first.status === "accepted" && first.eventId,
  );
  assert.equal(await countEvents(store), 2);
  store.close();
});

Deno.test("group commit: the same nonce twice in one batch is used once", async () => {
  await using store = await openTestKv();
  const group = new GroupCommit(store, { windowMs: 5 });
  const outcomes = await Promise.all([
    group.save(newEvent("a", { provider: "custom", kind: "custom", nonce: "n-1" })),
    group.save(newEvent("b", { provider: "custom", kind: "custom", nonce: "n-1" })),
  ]);
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ["accepted", "nonce_reused"]);
  assert.equal(await countEvents(store), 1);
  store.close();
});

Deno.test("group commit: a delivery already stored fails the batch; the rest still commit", async () => {
  await using store = await openTestKv();
  const stored = await saveEvent(store, newEvent("seen"));
  const { kv, log } = loggedKv(store);
  const group = new GroupCommit(kv, { windowMs: 5 });
  const outcomes = await Promise.all([
    group.save(newEvent("new-1")),
    group.save(newEvent("seen")),
    group.save(newEvent("new-2")),
  ]);
  assert.deepEqual(outcomes.map((outcome) => outcome.status), [
    "accepted",
    "duplicate",
    "accepted",
  ]);
  assert.equal(
    outcomes[1].status === "duplicate" && outcomes[1].eventId,
    stored.status === "accepted" && stored.eventId,
  );
  assert.equal(log.sizes[0], 3, "tried as one batch first");
  assert.equal(await countEvents(store), 3);
  store.close();
});

Deno.test("group commit: a batch commit that throws falls back to commits of their own", async () => {
  await using store = await openTestKv();
  const { kv, log } = loggedKv(store, (events) => events > 1);
  const group = new GroupCommit(kv, { windowMs: 5 });
  const outcomes = await Promise.all(
    Array.from({ length: 4 }, (_, index) => group.save(newEvent(`d-${index}`))),
  );
  assert.deepEqual(outcomes.map((outcome) => outcome.status), Array(4).fill("accepted"));
  assert.deepEqual(log.sizes, [4, 1, 1, 1, 1]);
  assert.equal(await countEvents(store), 4);
  store.close();
});

Deno.test("group commit: when every commit fails, every caller gets the error and nothing is stored", async () => {
  await using store = await openTestKv();
  const { kv } = loggedKv(store, () => true);
  const group = new GroupCommit(kv, { windowMs: 5 });
  const settled = await Promise.allSettled(
    Array.from({ length: 3 }, (_, index) => group.save(newEvent(`d-${index}`))),
  );
  assert.deepEqual(settled.map((result) => result.status), Array(3).fill("rejected"));
  assert.equal(await countEvents(store), 0);
  store.close();
});
