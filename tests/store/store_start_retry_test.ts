/**
 * Start-up against a database that cannot be reached (lib/store/kv.ts `openStoreWithRetry`,
 * called by main.ts): attempts with backoff, one log line each with the reason and never the
 * password, then one line and exit code 1; a database that comes back in time is used.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { closeStore, openStoreWithRetry, StoreOpenGaveUpError } from "../../lib/store/kv.ts";
import { startTestPostgres } from "../../testing/postgres.ts";
import { startTcpProxy } from "../../testing/tcp_proxy.ts";

const PASSWORD = "pw4Retry";

const probe = await startTestPostgres();
await probe?.stop();
const noPostgres = !probe;

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("start-up: an unreachable database is tried with backoff up to the wait, then one line", async () => {
  const url = `postgres://app:${PASSWORD}@127.0.0.1:${closedPort()}/switchyard`;
  const retries: Array<{ attempt: number; reason: string; retryInMs: number }> = [];
  const sleeps: number[] = [];
  const error = await openStoreWithRetry({ kvPath: undefined, databaseUrl: url }, {
    maxWaitMs: 60_000,
    onRetry: (attempt, reason, retryInMs) => retries.push({ attempt, reason, retryInMs }),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
  }).then(() => null, (error: unknown) => error);
  assert.ok(error instanceof StoreOpenGaveUpError, String(error));
  // The last wait is cut short: the last attempt comes when the 60 s are up.
  assert.deepEqual(sleeps, [
    500,
    1_000,
    2_000,
    4_000,
    8_000,
    10_000,
    10_000,
    10_000,
    10_000,
    4_500,
  ]);
  assert.deepEqual(retries.map((retry) => retry.attempt), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(retries.map((retry) => retry.retryInMs), sleeps);
  for (const { reason } of retries) {
    assert.match(reason, /^Store temporarily unavailable: .*ECONNREFUSED/);
    assert.doesNotMatch(reason, new RegExp(PASSWORD));
  }
  assert.match(error.message, /^Cannot open the store: gave up after 11 attempts in 60 s: /);
  assert.doesNotMatch(error.message, new RegExp(`${PASSWORD}|\\n`));
});

Deno.test({
  name: "start-up: a database that comes back while start-up waits is used",
  ignore: noPostgres,
  async fn() {
    const database = (await startTestPostgres())!;
    const proxy = startTcpProxy(Number(new URL(database.url).port));
    proxy.cut();
    const url = new URL(database.url);
    url.port = String(proxy.port);
    const attempts: number[] = [];
    try {
      const kv = await openStoreWithRetry({ kvPath: undefined, databaseUrl: url.href }, {
        maxWaitMs: 30_000,
        onRetry: (attempt) => {
          attempts.push(attempt);
          if (attempt === 2) proxy.restore();
        },
      });
      assert.deepEqual(attempts, [1, 2]);
      await kv.set(["health"], "ok");
      assert.equal((await kv.get(["health"])).value, "ok");
      await closeStore(kv);
    } finally {
      proxy.close();
      await database.stop();
    }
  },
});

Deno.test("main.ts with an unreachable DATABASE_URL logs each attempt and exits 1 with one line", async () => {
  const started = Date.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(PROJECT_ROOT, "main.ts")],
    env: {
      LOG_LEVEL: "info",
      PORT: String(closedPort()),
      DATABASE_URL: `postgres://app:${PASSWORD}@127.0.0.1:${closedPort()}/switchyard`,
      DATABASE_START_WAIT_SECONDS: "2",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const { code, stdout, stderr } = await child.output();
  clearTimeout(timer);
  const out = new TextDecoder().decode(stdout);
  const err = new TextDecoder().decode(stderr);
  assert.equal(code, 1, err);
  assert.ok(Date.now() - started < 30_000);
  assert.doesNotMatch(out + err, new RegExp(PASSWORD), "the password is never printed");
  assert.doesNotMatch(out, /listening/);
  const attempts = err.split("\n").filter((line) => line.includes("store unreachable"))
    .map((line) => JSON.parse(line));
  // waits of 0.5 s and 1 s fit in 2 s; what is left of the 2 s (if anything, after the attempts'
  // own time) is waited before a last attempt at the deadline
  assert.deepEqual(attempts.slice(0, 2).map((line) => [line.level, line.attempt, line.retryInMs]), [
    ["warn", 1, 500],
    ["warn", 2, 1000],
  ]);
  assert.ok(attempts.length <= 3 && (attempts[2]?.retryInMs ?? 0) < 500, JSON.stringify(attempts));
  for (const line of attempts) assert.match(line.reason, /ECONNREFUSED/);
  const last = err.trim().split("\n").at(-1)!;
  assert.match(
    last,
    new RegExp(
      `^Cannot open the store: gave up after ${
        attempts.length + 1
      } attempts in \\d+ s: Store temporarily unavailable: `,
    ),
  );
});
