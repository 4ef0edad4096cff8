/**
 * What only the PostgreSQL backend has: its selection by DATABASE_URL, migrations, prompt
 * expiry with a background purge, and its behaviour when the database cannot be reached.
 * (The behaviour it shares with Deno KV is in tests/store/store_backend_test.ts.) Skipped, loudly,
 * when no PostgreSQL can be started.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { ConfigError, loadConfig } from "../../lib/config.ts";
import { isStoreUnavailable } from "../../lib/store/backend/errors.ts";
import { PostgresKv } from "../../lib/store/backend/postgres/store.ts";
import { closeStore, openStore } from "../../lib/store/kv.ts";
import { isPassingStoreError } from "../../lib/store/transient.ts";
import { startTestPostgres } from "../../testing/postgres.ts";
import { startTcpProxy } from "../../testing/tcp_proxy.ts";

const probe = await startTestPostgres();
await probe?.stop();
const ignore = !probe;

/** A fresh database, its URL, and a direct client to look inside it. */
async function freshDatabase() {
  const database = (await startTestPostgres())!;
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  return {
    url: database.url,
    sql,
    async [Symbol.asyncDispose]() {
      await sql.end();
      await database.stop();
    },
  };
}

async function eventually(what: string, check: () => Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test("settings: DATABASE_URL must be a postgres URL (never echoed); DATABASE_POOL_SIZE 1-100, default 10", () => {
  const config = loadConfig({ KV_PATH: ":memory:", DATABASE_URL: "postgres://u:p@db:5432/app" });
  assert.equal(config.databaseUrl, "postgres://u:p@db:5432/app");
  assert.equal(config.databasePoolSize, 10);
  assert.equal(loadConfig({ DATABASE_POOL_SIZE: "25" }).databasePoolSize, 25);
  assert.equal(loadConfig({}).databaseUrl, undefined);
  for (const bad of ["mysql://u:secretpw@db/app", "postgres://u:secretpw@db", "not a url"]) {
    assert.throws(() => loadConfig({ DATABASE_URL: bad }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /DATABASE_URL/);
      assert.doesNotMatch(error.message, /secretpw/);
      return true;
    });
  }
  for (const bad of ["0", "101", "ten"]) {
    assert.throws(() => loadConfig({ DATABASE_POOL_SIZE: bad }), /DATABASE_POOL_SIZE/);
  }
});

Deno.test({
  name: "DATABASE_URL wins over KV_PATH; closing the store ends all its connections",
  ignore,
  async fn() {
    await using db = await freshDatabase();
    const config = loadConfig({
      KV_PATH: ":memory:",
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: "3",
    });
    const kv = await openStore(config);
    assert.ok(kv instanceof PostgresKv);
    await kv.set(["where"], "postgres");
    const reader = kv.watch([["where"]]).getReader();
    await reader.read(); // a listening connection is open too
    const [{ value }] = await db.sql`SELECT count(*)::int AS value FROM kv_entries`;
    assert.equal(value, 1, "the entry is in PostgreSQL");
    await closeStore(kv);
    // a server process leaves pg_stat_activity a moment after its client hung up
    await eventually("no connection of the store is left", async () => {
      const [{ open }] = await db.sql`SELECT count(*)::int AS open FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`;
      return open === 0;
    }, 5_000);
    assert.equal((await reader.read()).done, true, "the watch ended");
  },
});

Deno.test({
  name: "migrations run once, by version, even when instances start together",
  ignore,
  async fn() {
    await using db = await freshDatabase();
    const stores = await Promise.all(
      [1, 2, 3].map(() =>
        openStore({ kvPath: undefined, databaseUrl: db.url, databasePoolSize: 2 })
      ),
    );
    const rows = await db.sql`SELECT version FROM schema_migrations ORDER BY version`;
    assert.deepEqual(rows.map((row) => row.version), [1, 2, 3]);
    await stores[0].set(["shared"], 1);
    assert.equal((await stores[2].get(["shared"])).value, 1);
    for (const kv of stores) await closeStore(kv);
  },
});

Deno.test({
  // Deno KV removes expired entries lazily (within about a minute) and may read them until
  // then; the PostgreSQL backend hides them from the moment they expire.
  name: "an expired entry is invisible at once and purged in the background",
  ignore,
  async fn() {
    await using db = await freshDatabase();
    const kv = await openStore({ kvPath: undefined, databaseUrl: db.url }) as PostgresKv;
    try {
      await kv.set(["gone"], 1, { expireIn: 3_000 });
      await kv.set(["kept"], 2);
      assert.equal((await kv.get(["gone"])).value, 1, "readable before it expires");
      await new Promise((resolve) => setTimeout(resolve, 3_100));
      assert.equal((await kv.get(["gone"])).versionstamp, null);
      const listed = [];
      for await (const entry of kv.list({ prefix: [] as string[] }, {})) listed.push(entry.key);
      assert.deepEqual(listed, [["kept"]]);
      const before = await db.sql`SELECT count(*)::int AS n FROM kv_entries`;
      assert.equal(before[0].n, 2, "the expired row is still stored until the purge");
      assert.equal(await kv.purgeExpired(), 1);
      const after = await db.sql`SELECT count(*)::int AS n FROM kv_entries`;
      assert.equal(after[0].n, 1);
    } finally {
      await closeStore(kv);
    }
  },
});

Deno.test({
  name: "an unreachable database is a passing store error (503 + Retry-After); the store recovers",
  ignore,
  async fn() {
    await using db = await freshDatabase();
    const proxy = startTcpProxy(Number(new URL(db.url).port));
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    const kv = await openStore({ kvPath: undefined, databaseUrl: viaProxy.href });
    try {
      await kv.set(["before"], 1);
      proxy.cut();
      for (const attempt of [() => kv.get(["before"]), () => kv.set(["during"], 2)]) {
        await assert.rejects(attempt, (error: unknown) => {
          assert.ok(isStoreUnavailable(error), String(error));
          assert.ok(isPassingStoreError(error), "the app answers 503 with Retry-After");
          return true;
        });
      }
      proxy.restore();
      await eventually("the store answers again", async () => {
        try {
          return (await kv.get(["before"])).value === 1;
        } catch {
          return false;
        }
      });
      await kv.set(["after"], 3);
      assert.equal(
        (await kv.get(["during"])).versionstamp,
        null,
        "the refused write did not happen",
      );
    } finally {
      await closeStore(kv);
      proxy.close();
    }
  },
  sanitizeResources: false, // the proxy's dropped sockets close asynchronously
  sanitizeOps: false,
});

Deno.test({
  name: "a watch catches up on changes made while its listening connection was cut",
  ignore,
  async fn() {
    await using db = await freshDatabase();
    const proxy = startTcpProxy(Number(new URL(db.url).port));
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    const watching = await openStore({ kvPath: undefined, databaseUrl: viaProxy.href });
    const writer = await openStore({ kvPath: undefined, databaseUrl: db.url });
    const reader = watching.watch([["flag"]]).getReader();
    try {
      assert.equal((await reader.read()).value![0].versionstamp, null);
      await writer.set(["flag"], "first");
      assert.equal((await reader.read()).value![0].value, "first");
      proxy.cut();
      await writer.set(["flag"], "while cut");
      proxy.restore();
      const next = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("no catch-up")), 15_000)
        ),
      ]);
      assert.equal(next.value![0].value, "while cut");
    } finally {
      await reader.cancel();
      await closeStore(watching);
      await closeStore(writer);
      proxy.close();
    }
  },
  sanitizeResources: false,
  sanitizeOps: false,
});

if (ignore) {
  console.warn(
    "\n!!! PostgreSQL is not available (no PG_TEST_URL, no /usr/lib/postgresql/*/bin): SKIPPED " +
      "the PostgreSQL tests of tests/store/store_postgres_test.ts\n",
  );
}

Deno.test({
  name: "a database of schema 1 is migrated to commits with binary values; its entries stay",
  ignore,
  async fn() {
    await using db = await freshDatabase();
    const first = await openStore({ kvPath: undefined, databaseUrl: db.url });
    await first.set(["kept"], { text: "before", bytes: new Uint8Array([1, 2, 3]) });
    await closeStore(first);
    // Back to schema 1 as it was: its kv_commit took the values as a text array of hex.
    await db.sql`DELETE FROM schema_migrations WHERE version > 1`;
    await db.sql`DROP FUNCTION kv_read(text[])`;
    await db.sql.unsafe(`DROP FUNCTION kv_commit(bigint[], text[], bigint[], text[],
      smallint[], bytea, integer[], integer[], bigint[], text[], text[], text[], numeric[],
      text, text)`);
    await db.sql.unsafe(`CREATE FUNCTION kv_commit(bigint[], text[], bigint[], text[],
      smallint[], text[], bigint[], text[], text[], text[], numeric[], text, text)
      RETURNS bigint LANGUAGE sql AS 'SELECT NULL::bigint'`);
    const kv = await openStore({ kvPath: undefined, databaseUrl: db.url });
    try {
      const rows = await db.sql`SELECT version FROM schema_migrations ORDER BY version`;
      assert.deepEqual(rows.map((row) => row.version), [1, 2, 3]);
      const functions = await db.sql`SELECT count(*)::int AS n FROM pg_proc
        WHERE proname = 'kv_commit'`;
      assert.equal(functions[0].n, 1, "the schema-1 kv_commit is gone");
      assert.deepEqual((await kv.get(["kept"])).value, {
        text: "before",
        bytes: new Uint8Array([1, 2, 3]),
      });
      const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => i % 251).subarray(0, 65_536);
      const committed = await kv.atomic().set(["a"], "text").set(["b"], bytes)
        .set(["c"], new Uint8Array()).commit();
      assert.equal(committed.ok, true);
      const [a, b, c] = await kv.getMany<[string, Uint8Array, Uint8Array]>([["a"], ["b"], ["c"]]);
      assert.equal(a.value, "text");
      assert.deepEqual(b.value, bytes);
      assert.deepEqual(c.value, new Uint8Array());
    } finally {
      await closeStore(kv);
    }
  },
});

Deno.test({
  name:
    "the store's commits and reads of several keys plan with index scans, where a small table's statistics favour a scan",
  ignore,
  async fn() {
    await using db = await freshDatabase();
    const kv = await openStore({ kvPath: undefined, databaseUrl: db.url, databasePoolSize: 1 });
    for (let index = 0; index < 20; index++) await kv.set(["row", index], index);
    await db.sql`ANALYZE kv_entries`;
    // what kv_read runs, planned in a plain session: the small table is scanned whole
    const [{ "QUERY PLAN": plan }] = await db.sql.unsafe(
      `EXPLAIN SELECT key FROM kv_entries WHERE key = ANY (ARRAY(SELECT decode(unnest($1::text[]), 'hex')))`,
      [Array.from({ length: 10 }, (_, index) => index.toString(16).padStart(2, "0"))],
    );
    assert.match(plan, /Seq Scan on kv_entries/);
    const settings = await db.sql`SELECT proname, proconfig FROM pg_proc
      WHERE proname IN ('kv_commit', 'kv_read') ORDER BY proname`;
    assert.deepEqual(settings.map((row) => [row.proname, row.proconfig]), [
      ["kv_commit", ["enable_seqscan=off"]],
      ["kv_read", ["enable_seqscan=off"]],
    ]);
    const read = await kv.getMany([["row", 3], ["row", 99]]);
    assert.deepEqual(read.map((entry) => entry.value), [3, null]);
    await closeStore(kv);
  },
});
