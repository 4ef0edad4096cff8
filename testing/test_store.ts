/**
 * The store a test runs on, chosen by the environment: a fresh `:memory:` Deno KV (the default),
 * or, with `TEST_STORE=postgres`, a fresh PostgreSQL database (testing/postgres.ts: the server of
 * `PG_TEST_URL`, else one throw-away cluster per test isolate, started on first use and stopped
 * when the isolate unloads). `deno task test` runs the store, delivery, ingest, noise, instance,
 * jobs and chat-ops files once per backend (testing/test_all.ts).
 *
 * A test that only makes sense on one backend says so with {@link onlyOn}.
 */
import { closeStore, openStore, type StoreSettings } from "../lib/store/kv.ts";
import type { Kv } from "../lib/store/backend/types.ts";
import { startTestPostgres, type TestPostgres } from "./postgres.ts";

/** The backends a test can run on. */
export type TestBackend = "denokv" | "postgres";

/** The backend of this test run: `TEST_STORE=postgres` or Deno KV. */
export function testBackend(): TestBackend {
  const chosen = Deno.env.get("TEST_STORE") ?? "denokv";
  if (chosen !== "denokv" && chosen !== "postgres") {
    throw new Error(`TEST_STORE must be "denokv" or "postgres", not ${JSON.stringify(chosen)}`);
  }
  return chosen;
}

/** Whether this run is on PostgreSQL. */
export function onPostgres(): boolean {
  return testBackend() === "postgres";
}

/** A store for one test; closing it with `await using` also drops its database. */
export type TestKv = Kv & AsyncDisposable;

/** A fresh empty store of this run's backend. */
export async function openTestKv(): Promise<TestKv> {
  if (!onPostgres()) return disposable(await Deno.openKv(":memory:"), async () => {});
  const database = await requirePostgres();
  try {
    return await openOn(database.url, () => database.stop());
  } catch (error) {
    await database.stop();
    throw error;
  }
}

/** One store that several instances open, each with its own handle (its own pool). */
export interface SharedTestStore extends AsyncDisposable {
  /** The settings an instance opens it with (`KV_PATH` or `DATABASE_URL`). */
  settings: StoreSettings;
  /** The same as environment settings, for `loadConfig`. */
  env: Record<string, string>;
  /** What a subprocess is given to open it: the KV file's path or the database URL. */
  location: string;
  /** Opens another handle on the store; each is closed when the shared store is disposed. */
  open(): Promise<TestKv>;
}

/** A store for several instances: a temporary KV file, or a fresh PostgreSQL database. */
export async function sharedTestStore(): Promise<SharedTestStore> {
  const handles: TestKv[] = [];
  let location: string;
  let settings: StoreSettings;
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  if (onPostgres()) {
    const database = await requirePostgres();
    location = database.url;
    settings = { kvPath: undefined, databaseUrl: database.url };
    env = { DATABASE_URL: database.url };
    cleanUp = () => database.stop();
  } else {
    const dir = await Deno.makeTempDir({ prefix: "switchyard-shared-" });
    location = `${dir}/shared.kv`;
    settings = { kvPath: location };
    env = { KV_PATH: location };
    cleanUp = () => Deno.remove(dir, { recursive: true });
  }
  return {
    settings,
    env,
    location,
    async open() {
      const kv = disposable(await openStore(settings), async () => {});
      handles.push(kv);
      return kv;
    },
    async [Symbol.asyncDispose]() {
      for (const kv of handles) await kv[Symbol.asyncDispose]();
      await cleanUp();
    },
  };
}

/**
 * Test options that skip a test on the other backend, printing why: `Deno.test({ name,
 * ...onlyOn("denokv", "reason"), fn })`.
 */
export function onlyOn(backend: TestBackend, reason: string): { ignore: boolean } {
  const ignore = testBackend() !== backend;
  if (ignore) console.warn(`skipped on ${testBackend()}: ${reason}`);
  return { ignore };
}

async function requirePostgres(): Promise<TestPostgres> {
  const database = await startTestPostgres();
  if (!database) {
    throw new Error(
      "TEST_STORE=postgres but no PostgreSQL: set PG_TEST_URL or install Debian's postgresql",
    );
  }
  return database;
}

async function openOn(url: string, dropDatabase: () => Promise<void>): Promise<TestKv> {
  const kv = await openStore({ kvPath: undefined, databaseUrl: url, databasePoolSize: 4 });
  return disposable(kv, dropDatabase);
}

/** Adds an idempotent async dispose: closes the store (waiting for its pool), then `after`. */
function disposable(kv: Kv, after: () => Promise<void>): TestKv {
  let disposing: Promise<void> | undefined;
  const close = kv.close.bind(kv);
  let closed = false;
  const closeOnce = () => {
    if (closed) return;
    closed = true;
    close();
  };
  // A test may close the store itself (e.g. to reopen a file); the dispose then only cleans up.
  kv.close = closeOnce;
  kv[Symbol.dispose] = closeOnce;
  return Object.assign(kv, {
    [Symbol.asyncDispose]() {
      disposing ??= (async () => {
        closeOnce();
        await closeStore(kv).catch(() => {});
        await after();
      })();
      return disposing;
    },
  });
}
