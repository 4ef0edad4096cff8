/**
 * One conformance suite for every store backend: each case runs against Deno KV and against
 * PostgreSQL (a throw-away cluster from testing/postgres.ts) and must behave the same. Without
 * PostgreSQL on the machine the PostgreSQL half is skipped, loudly.
 */
import assert from "node:assert/strict";
import { closeStore, openStore } from "../../lib/store/kv.ts";
import { isPassingStoreError } from "../../lib/store/transient.ts";
import { type Kv, type KvEntryMaybe, type KvKey, KvU64 } from "../../lib/store/backend/types.ts";
import { startTestPostgres, type TestPostgres } from "../../testing/postgres.ts";

/** A fresh empty store, and a way to open a second connection to the same store. */
interface Opened {
  kv: Kv;
  another(): Promise<Kv>;
  dispose(): Promise<void>;
}

interface Backend {
  name: string;
  open(): Promise<Opened>;
}

// Type-level check: Deno KV is a Kv as it is (a pass-through, no wrapper).
const typeCheck: () => Promise<Kv> = () => Deno.openKv(":memory:");
void typeCheck;

const denoKv: Backend = {
  name: "Deno KV",
  async open() {
    const dir = await Deno.makeTempDir({ prefix: "switchyard-kv-" });
    const path = `${dir}/store.kv`;
    const opened: Kv[] = [];
    const connect = async () => {
      const kv = await openStore({ kvPath: path });
      opened.push(kv);
      return kv;
    };
    return {
      kv: await connect(),
      another: connect,
      async dispose() {
        for (const kv of opened) await closeStore(kv);
        await Deno.remove(dir, { recursive: true });
      },
    };
  },
};

const server: TestPostgres | null = await startTestPostgres();

const postgres: Backend = {
  name: "PostgreSQL",
  async open() {
    const database = (await startTestPostgres())!;
    const opened: Kv[] = [];
    const connect = async () => {
      const kv = await openStore({ kvPath: undefined, databaseUrl: database.url });
      opened.push(kv);
      return kv;
    };
    return {
      kv: await connect(),
      another: connect,
      async dispose() {
        for (const kv of opened) await closeStore(kv);
        await database.stop();
      },
    };
  },
};

const cases: [name: string, run: (store: Opened) => Promise<void>][] = [];

/** Registers a case that runs on every backend. */
function conformance(name: string, run: (store: Opened) => Promise<void>): void {
  cases.push([name, run]);
}

/**
 * Runs a commit again while the store answers "busy" (two Deno KV connections on one file
 * answer "database is locked"; the store's callers retry such passing errors, see
 * lib/store/transient.ts).
 */
async function whileBusy<T>(commit: () => Promise<T>): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await commit();
    } catch (error) {
      if (attempt >= 50 || !isPassingStoreError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}

async function collect<T>(iterator: AsyncIterable<{ key: KvKey; value: T }>): Promise<KvKey[]> {
  const keys: KvKey[] = [];
  for await (const entry of iterator) keys.push(entry.key);
  return keys;
}

/** Every kind of key part, in Deno KV's order. */
const ORDERED_PARTS = [
  new Uint8Array([]),
  new Uint8Array([0]),
  new Uint8Array([0, 0]),
  new Uint8Array([1]),
  "",
  "a",
  "a\0",
  "a\0b",
  "b",
  "é",
  -(2n ** 70n),
  -256n,
  -1n,
  0n,
  1n,
  255n,
  256n,
  2n ** 70n,
  -Infinity,
  -1.5,
  -0,
  0,
  1e-300,
  1,
  Infinity,
  NaN,
  false,
  true,
];

conformance("keys of every type list in Deno KV's order and read back equal", async ({ kv }) => {
  const shuffled = [...ORDERED_PARTS].reverse();
  for (const [i, part] of shuffled.entries()) await kv.set(["k", part], i);
  const listed = await collect(kv.list({ prefix: ["k"] }));
  assert.deepEqual(listed, ORDERED_PARTS.map((part) => ["k", part]));
  const reversed = await collect(kv.list({ prefix: ["k"] }, { reverse: true }));
  assert.deepEqual(reversed, [...ORDERED_PARTS].reverse().map((part) => ["k", part]));
  for (const part of ORDERED_PARTS) {
    assert.notEqual((await kv.get(["k", part])).versionstamp, null, String(part));
  }
});

conformance(
  "a prefix list leaves out the prefix itself; start inclusive, end exclusive",
  async ({ kv }) => {
    await kv.set(["p"], "self");
    for (let i = 0; i < 6; i++) await kv.set(["p", i], i);
    await kv.set(["p", 2, "child"], "deep");
    await kv.set(["q", 0], "other");
    assert.deepEqual(await collect(kv.list({ prefix: ["p"] })), [
      ["p", 0],
      ["p", 1],
      ["p", 2],
      ["p", 2, "child"],
      ["p", 3],
      ["p", 4],
      ["p", 5],
    ]);
    assert.deepEqual(await collect(kv.list({ prefix: ["p"], start: ["p", 3] })), [
      ["p", 3],
      ["p", 4],
      ["p", 5],
    ]);
    assert.deepEqual(await collect(kv.list({ prefix: ["p"], end: ["p", 2] })), [["p", 0], [
      "p",
      1,
    ]]);
    assert.deepEqual(await collect(kv.list({ start: ["p", 1], end: ["p", 3] })), [
      ["p", 1],
      ["p", 2],
      ["p", 2, "child"],
    ]);
    assert.deepEqual(
      await collect(kv.list({ prefix: ["p"] }, { reverse: true, limit: 2 })),
      [["p", 5], ["p", 4]],
    );
    await assert.rejects(
      async () => await collect(kv.list({ prefix: ["p"], start: ["q"] })),
      TypeError,
    );
  },
);

conformance("cursors page through a list forwards and backwards without gaps", async ({ kv }) => {
  for (let i = 0; i < 25; i++) await kv.set(["page", i], i);
  for (const reverse of [false, true]) {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const iterator = kv.list<number>({ prefix: ["page"] }, { limit: 4, cursor, reverse });
      let count = 0;
      for await (const entry of iterator) {
        seen.push(entry.value);
        count++;
      }
      if (count < 4) break;
      cursor = iterator.cursor;
    }
    const expected = Array.from({ length: 25 }, (_, i) => i);
    assert.deepEqual(seen, reverse ? expected.reverse() : expected);
  }
  const small = kv.list({ prefix: ["page"] }, { batchSize: 3 });
  assert.throws(() => small.cursor, /before first iteration/);
  assert.equal((await collect(small)).length, 25, "batches of 3 still read everything");
  assert.equal(small.cursor, "", "a list that ran out has an empty cursor");
  const limited = kv.list({ prefix: ["page"] }, { limit: 25 });
  await collect(limited);
  assert.notEqual(limited.cursor, "", "a list that reached its limit has a cursor");
});

conformance("versionstamps are 20 hex digits and grow with each commit", async ({ kv }) => {
  const first = await kv.set(["v"], 1);
  const second = await kv.set(["v"], 2);
  const other = await kv.set(["w"], 3);
  for (const result of [first, second, other]) assert.match(result.versionstamp, /^[0-9a-f]{20}$/);
  assert.ok(first.versionstamp < second.versionstamp);
  assert.ok(second.versionstamp < other.versionstamp);
  assert.equal((await kv.get(["v"])).versionstamp, second.versionstamp);
});

conformance(
  "check: a changed versionstamp or an existing key fails the whole commit",
  async ({ kv }) => {
    const { versionstamp } = await kv.set(["c"], "old");
    const fresh = await kv.atomic().check({ key: ["c"], versionstamp }).set(["c"], "new")
      .set(["c2"], "x").commit();
    assert.equal(fresh.ok, true);
    const stale = await kv.atomic().check({ key: ["c"], versionstamp }).set(["c"], "stale")
      .set(["c3"], "y").commit();
    assert.deepEqual(stale, { ok: false });
    assert.equal((await kv.get(["c"])).value, "new");
    assert.equal(
      (await kv.get(["c3"])).versionstamp,
      null,
      "nothing of a failed commit is written",
    );
    const mustNotExist = await kv.atomic().check({ key: ["c"], versionstamp: null }).set(["c4"], 1)
      .commit();
    assert.deepEqual(mustNotExist, { ok: false });
    const absent = await kv.atomic().check({ key: ["nobody"], versionstamp: null }).set(
      ["nobody"],
      1,
    ).commit();
    assert.equal(absent.ok, true);
    await kv.delete(["nobody"]);
    const gone = await kv.atomic().check({ key: ["nobody"], versionstamp: null }).commit();
    assert.equal(gone.ok, true, "a deleted key does not exist");
  },
);

conformance("commits racing on one check from two connections: exactly one wins", async (store) => {
  const other = await store.another();
  for (let round = 0; round < 5; round++) {
    const key = ["race", round];
    const results = await Promise.all(
      Array.from(
        { length: 8 },
        (_, i) =>
          whileBusy(() =>
            (i % 2 ? other : store.kv).atomic().check({ key, versionstamp: null }).set(key, i)
              .commit()
          ),
      ),
    );
    assert.equal(results.filter((result) => result.ok).length, 1, `round ${round}`);
  }
  // read-check-write increments: none lost
  const counter = ["counter"];
  await Promise.all(Array.from({ length: 10 }, async (_, i) => {
    const kv = i % 2 ? other : store.kv;
    for (;;) {
      const entry = await kv.get<number>(counter);
      const done = await whileBusy(() =>
        kv.atomic().check(entry).set(counter, (entry.value ?? 0) + 1).commit()
      );
      if (done.ok) return;
    }
  }));
  assert.equal((await store.kv.get(counter)).value, 10);
});

conformance(
  "sum wraps around at 2^64; min and max; counting a non-U64 value is a TypeError",
  async ({ kv }) => {
    await kv.atomic().sum(["n"], 5n).commit();
    await kv.atomic().sum(["n"], 7n).sum(["n"], 1n).commit();
    assert.deepEqual((await kv.get(["n"])).value, new KvU64(13n));
    await kv.set(["wrap"], new KvU64(2n ** 64n - 1n));
    await kv.atomic().sum(["wrap"], 3n).commit();
    assert.equal((await kv.get<KvU64>(["wrap"])).value!.value, 2n);
    await kv.atomic().min(["lo"], 9n).commit();
    await kv.atomic().min(["lo"], 4n).min(["lo"], 6n).commit();
    await kv.atomic().max(["hi"], 4n).commit();
    await kv.atomic().max(["hi"], 9n).max(["hi"], 6n).commit();
    assert.equal((await kv.get<KvU64>(["lo"])).value!.value, 4n);
    assert.equal((await kv.get<KvU64>(["hi"])).value!.value, 9n);
    await kv.set(["text"], 5);
    await assert.rejects(async () => await kv.atomic().sum(["text"], 1n).commit(), TypeError);
    assert.equal((await kv.get(["text"])).value, 5);
    assert.throws(() => kv.atomic().sum(["n"], -1n), RangeError);
  },
);

conformance(
  "expireIn: an entry is there until it expires; a bad expireIn is a TypeError",
  async ({ kv }) => {
    await kv.set(["exp", "short"], "soon gone", { expireIn: 60_000 });
    await kv.atomic().set(["exp", "long"], "stays", { expireIn: 600_000 }).set(["exp", "plain"], 1)
      .commit();
    assert.equal((await kv.get(["exp", "short"])).value, "soon gone");
    assert.equal((await collect(kv.list({ prefix: ["exp"] }))).length, 3);
    await assert.rejects(async () => await kv.set(["exp", "bad"], 1, { expireIn: -1 }), TypeError);
    await assert.rejects(async () => await kv.set(["exp", "bad"], 1, { expireIn: 1.5 }), TypeError);
  },
);

conformance("values of every kind read back as they were written", async ({ kv }) => {
  const values: unknown[] = [
    "text ✓",
    "",
    0,
    -0,
    1.5,
    NaN,
    Infinity,
    -Infinity,
    2n ** 80n,
    -3n,
    true,
    false,
    null,
    undefined,
    new Uint8Array([0, 1, 255]),
    new Date(1_700_000_000_123),
    /a+b/gi,
    new Map<unknown, unknown>([["a", 1], [2, { b: [3] }]]),
    new Set([1, "two"]),
    { nested: { list: [1, "2", { three: 3n }], bytes: new Uint8Array([7]), when: new Date(0) } },
    [1, [2, [3, null]], undefined],
    new KvU64(42n),
  ];
  for (const [i, value] of values.entries()) await kv.set(["value", i], value);
  for (const [i, value] of values.entries()) {
    const read = (await kv.get(["value", i])).value;
    assert.deepEqual(read, value, `value ${i}`);
    if (Object.is(value, -0)) assert.ok(Object.is(read, -0), "-0 stays -0");
  }
  assert.ok((await kv.get(["value", 14])).value instanceof Uint8Array);
  assert.ok((await kv.get(["value", 21])).value instanceof KvU64);
  await assert.rejects(async () => await kv.set(["fn"], () => 1), TypeError);
});

conformance(
  "getMany reads keys in the order given, missing ones as null entries",
  async ({ kv }) => {
    await kv.set(["m", 1], "one");
    await kv.set(["m", 3], "three");
    const entries = await kv.getMany<[string, string, string]>([["m", 3], ["m", 2], ["m", 1]]);
    assert.deepEqual(entries.map((entry: KvEntryMaybe<string>) => [entry.key, entry.value]), [
      [["m", 3], "three"],
      [["m", 2], null],
      [["m", 1], "one"],
    ]);
    assert.equal(entries[1].versionstamp, null);
    await assert.rejects(
      async () => await kv.getMany(Array.from({ length: 11 }, (_, i) => ["m", i])),
      /Too many ranges \(max 10\)/,
    );
  },
);

conformance(
  "watch emits at once, then within a second of a change made elsewhere",
  async (store) => {
    const other = await store.another();
    await store.kv.set(["watched", "a"], 1);
    const reader = store.kv.watch([["watched", "a"], ["watched", "b"]]).getReader();
    try {
      const first = await reader.read();
      assert.deepEqual(first.value!.map((entry) => entry.value), [1, null]);
      const started = Date.now();
      await other.set(["unwatched"], "noise");
      await other.set(["watched", "b"], "changed");
      let next = await withTimeout(reader.read(), 5_000);
      // Deno KV may report the unchanged state once more before the change
      while (next.value![1].value === null) next = await withTimeout(reader.read(), 5_000);
      assert.deepEqual(next.value!.map((entry) => entry.value), [1, "changed"]);
      assert.ok(Date.now() - started < 1_500, `seen after ${Date.now() - started} ms`);
    } finally {
      await reader.cancel();
    }
  },
);

conformance(
  "limits: keys, values and commits as large as Deno KV allows, and no larger",
  async ({ kv }) => {
    await kv.set(["x".repeat(2045)], "largest key");
    await assert.rejects(async () => await kv.set(["x".repeat(2046 + 1)], 1), /Key too large/);
    await kv.set(["bytes"], new Uint8Array(65_536));
    await assert.rejects(
      async () => await kv.set(["bytes"], new Uint8Array(65_537)),
      /Value too large/,
    );
    await assert.rejects(async () => await kv.set(["text"], "x".repeat(65_536)), /Value too large/);
    const many = kv.atomic();
    for (let i = 0; i < 1000; i++) many.set(["many", i], i);
    assert.equal((await many.commit()).ok, true);
    assert.equal((await collect(kv.list({ prefix: ["many"] }))).length, 1000);
    const tooMany = kv.atomic();
    for (let i = 0; i < 1001; i++) tooMany.set(["many", i], i);
    await assert.rejects(async () => await tooMany.commit(), /Too many mutations/);
    const checks = kv.atomic();
    for (let i = 0; i < 100; i++) checks.check({ key: ["checked", i], versionstamp: null });
    assert.equal((await checks.commit()).ok, true);
    checks.check({ key: ["checked", 100], versionstamp: null });
    await assert.rejects(async () => await checks.commit(), /Too many checks/);
    const heavy = kv.atomic();
    for (let i = 0; i < 13; i++) heavy.set(["heavy", i], new Uint8Array(62_000));
    assert.equal((await heavy.commit()).ok, true, "806 KB in one commit");
    heavy.set(["heavy", 13], new Uint8Array(62_000));
    await assert.rejects(async () => await heavy.commit(), /Total mutation size too large/);
    await assert.rejects(async () => await kv.set([], 1), TypeError);
  },
);

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

for (const backend of [denoKv, postgres]) {
  const skipped = backend === postgres && !server;
  for (const [name, run] of cases) {
    Deno.test({
      name: `${backend.name}: ${name}`,
      ignore: skipped,
      async fn() {
        const store = await backend.open();
        try {
          await run(store);
        } finally {
          await store.dispose();
        }
      },
    });
  }
}

if (!server) {
  console.warn(
    `\n!!! PostgreSQL is not available (no PG_TEST_URL, no /usr/lib/postgresql/*/bin): ` +
      `SKIPPED the PostgreSQL half of tests/store/store_backend_test.ts:\n` +
      cases.map(([name]) => `  - PostgreSQL: ${name}`).join("\n") + "\n",
  );
} else {
  await server.stop(); // only the cluster was wanted here; each case makes its own database
}
