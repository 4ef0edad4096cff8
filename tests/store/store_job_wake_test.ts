/**
 * Job wake-ups without a hot row: on PostgreSQL a commit that adds a job signals the workers
 * with the commit's notification (`notify` on the atomic operation) instead of writing the
 * `["jobs_wake"]` key, so concurrent ingest commits do not all lock and update one row. Deno KV
 * has no such signal: there the commit still writes the key, whose watch wakes the workers.
 * Without PostgreSQL on the machine the PostgreSQL tests are skipped, loudly.
 */
import assert from "node:assert/strict";
import { closeStore, openStore } from "../../lib/store/kv.ts";
import { putJob } from "../../lib/store/delivery/jobs.ts";
import { jobsWakeKey } from "../../lib/store/keys.ts";
import type { Kv, KvEntryMaybe } from "../../lib/store/backend/types.ts";
import { startTestPostgres } from "../../testing/postgres.ts";

const server = await startTestPostgres();
const skipped = server === null;
if (skipped) {
  console.warn("\n!!! PostgreSQL is not available: SKIPPED tests/store/store_job_wake_test.ts\n");
} else {
  await server.stop(); // each test makes its own database
}

/** Two connections to one fresh PostgreSQL database. */
async function twoConnections(): Promise<{ a: Kv; b: Kv } & AsyncDisposable> {
  const database = (await startTestPostgres())!;
  const a = await openStore({ kvPath: undefined, databaseUrl: database.url });
  const b = await openStore({ kvPath: undefined, databaseUrl: database.url });
  return {
    a,
    b,
    async [Symbol.asyncDispose]() {
      await closeStore(a);
      await closeStore(b);
      await database.stop();
    },
  };
}

/**
 * Reads a watch: `next(ms)` is its next emission, or null when none comes within `ms` (a read
 * that timed out is kept for the next call, so no emission is lost).
 */
function emissions<T>(stream: ReadableStream<T>) {
  const reader = stream.getReader();
  let pending: Promise<T | null> | null = null;
  return {
    async next(ms: number): Promise<T | null> {
      pending ??= reader.read().then((result) => result.done ? null : result.value);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), ms);
      });
      const result = await Promise.race([pending, timeout]);
      clearTimeout(timer);
      if (result === "timeout") return null;
      pending = null;
      return result;
    },
    cancel: () => reader.cancel(),
  };
}

Deno.test({
  name: "PostgreSQL: adding a job wakes a worker's watch on another connection and writes no row",
  ignore: skipped,
  async fn() {
    await using store = await twoConnections();
    const reader = emissions(store.b.watch<[number]>([jobsWakeKey()]));
    try {
      assert.notEqual(await reader.next(5_000), null, "the watch emits at once");
      const started = Date.now();
      await putJob(store.a, { type: "noop" });
      const woken = await reader.next(5_000);
      assert.notEqual(woken, null, "the watch was woken");
      assert.ok(Date.now() - started < 1_000, `woken after ${Date.now() - started} ms`);
      const wake = await store.a.get(jobsWakeKey());
      assert.equal(wake.versionstamp, null, "no jobs_wake row was written");
    } finally {
      await reader.cancel();
    }
  },
});

Deno.test({
  name: "PostgreSQL: notify wakes the watchers of a key only when its commit applies",
  ignore: skipped,
  async fn() {
    await using store = await twoConnections();
    const reader = emissions(store.b.watch<[string]>([["signal"]]));
    try {
      const first = await reader.next(5_000) as [KvEntryMaybe<string>];
      assert.equal(first[0].versionstamp, null);
      const op = store.a.atomic();
      assert.ok(op.notify, "the PostgreSQL backend offers notify");
      const failed = await op.check({ key: ["guard"], versionstamp: "00000000000000010000" })
        .notify!(["signal"]).commit();
      assert.equal(failed.ok, false);
      assert.equal(await reader.next(700), null, "a failed commit wakes nobody");
      const applied = await store.a.atomic().set(["other"], 1).notify!(["signal"]).commit();
      assert.equal(applied.ok, true);
      const woken = await reader.next(5_000) as [KvEntryMaybe<string>];
      assert.ok(woken, "the watcher was woken");
      assert.equal(woken[0].versionstamp, null, "the signalled key is still unwritten");
    } finally {
      await reader.cancel();
    }
  },
});

Deno.test("Deno KV: adding a job writes the wake-up key its workers watch", async () => {
  const kv = await openStore(":memory:");
  try {
    assert.equal(kv.atomic().notify, undefined, "Deno KV has no notify");
    await putJob(kv, { type: "noop" });
    assert.notEqual((await kv.get(jobsWakeKey())).versionstamp, null);
  } finally {
    await closeStore(kv);
  }
});
