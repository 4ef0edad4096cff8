/**
 * Copying a store (`deno task store:copy`, lib/store/copy.ts): every entry arrives with its key
 * and value, counters stay counters, the counts per family are compared, a non-empty target is
 * refused, and expiring families get their lifetime again. The PostgreSQL legs are skipped,
 * loudly, when no PostgreSQL can be started.
 */
import type { KvKey } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import postgres from "postgres";
import { decodeKey } from "../../lib/store/backend/key_codec.ts";
import { type AtomicOperation, type Kv, KvU64 } from "../../lib/store/backend/types.ts";
import { familyExpires } from "../../lib/store/copy_lifetimes.ts";
import { copyStore, formatCountTable, StoreCopyRefusedError } from "../../lib/store/copy.ts";
import { putJob } from "../../lib/store/delivery/jobs.ts";
import {
  applyIssueChange,
  CLOSED_KEEP_MS as CLOSED_ISSUE_KEEP_MS,
} from "../../lib/store/delivery/open_issues.ts";
import { closeStore, openStore } from "../../lib/store/kv.ts";
import { saveDiscordLink } from "../../lib/store/auth/links.ts";
import { retentionMs } from "../../lib/store/delivery/send_logs.ts";
import { createSession, SESSION_LIFETIME_MS } from "../../lib/store/auth/sessions.ts";
import { saveToken } from "../../lib/store/auth/tokens.ts";
import { startTestPostgres } from "../../testing/postgres.ts";
import { seedHistory } from "../_logs_fixtures.ts";

const probe = await startTestPostgres();
await probe?.stop();
const noPostgres = !probe;

const RETENTION_MS = retentionMs(30);

/** Populates a store with the app's own functions: groups, routes, send logs with their
 * counters, audit, a failed unit in its lane, a link, a token, a session and a pending job. */
async function populate(kv: Kv): Promise<void> {
  await seedHistory(kv);
  assert.ok(
    await saveDiscordLink(kv, {
      discordUserId: "555000111",
      userId: "42",
      login: "octocat",
      linkedAt: Date.now(),
    }),
  );
  assert.ok(
    await saveToken(kv, {
      userId: "42",
      login: "octocat",
      accessToken: "ghu_copytest",
      expiresAt: Date.now() + 8 * 3_600_000,
      refreshToken: "ghr_copytest",
      refreshTokenExpiresAt: Date.now() + 180 * 24 * 3_600_000,
    }),
  );
  await createSession(kv, { userId: "42", login: "octocat" });
  await putJob(kv, { type: "fan_out", eventId: "01JCOPYTEST" }, { delayMs: 60_000 });
}

/** Every entry as comparable data: key, and value (a counter as `{ u64 }`). */
async function entriesOf(kv: Kv): Promise<unknown[]> {
  const entries: unknown[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    const value = entry.value instanceof KvU64 ? { u64: entry.value.value } : entry.value;
    entries.push({ key: entry.key, value });
  }
  return entries;
}

function assertFamilies(entries: unknown[], families: string[]): void {
  const present = new Set(entries.map((entry) => (entry as { key: unknown[] }).key[0]));
  for (const family of families) assert.ok(present.has(family), `the fixture writes ${family}`);
}

Deno.test("store copy: Deno KV to Deno KV copies every entry, counters as KvU64, and counts match", async () => {
  const source = await openStore(":memory:");
  const target = await openStore(":memory:");
  try {
    await populate(source);
    const before = await entriesOf(source);
    assertFamilies(before, [
      "group_sets",
      "route_sets",
      "discord_links",
      "token",
      "sessions",
      "send_logs",
      "jobs",
      "delivery_counters",
      "unit_bodies",
    ]);
    const report = await copyStore(source, target, { retentionMs: RETENTION_MS });
    assert.deepEqual(await entriesOf(target), before);
    assert.equal(report.copied, before.length);
    assert.ok(report.countsMatch);
    assert.ok(report.families.every((row) => row.source === row.target && row.source > 0));
    const counter = (await Array.fromAsync(target.list({ prefix: ["delivery_counters"] })))[0];
    assert.ok(counter.value instanceof KvU64, "a counter stays a KvU64: sum still works");
    assert.ok((await target.atomic().sum(counter.key, 1n).commit()).ok);
    assert.match(formatCountTable(report.families), /^family\s+source\s+target/);
    assert.match(
      formatCountTable(report.families),
      new RegExp(`total\\s+${before.length}\\s+${before.length}\\s+ok`),
    );
  } finally {
    source.close();
    target.close();
  }
});

Deno.test("store copy: more entries than one commit holds go in several commits within the limits", async () => {
  const source = await openStore(":memory:");
  const target = await openStore(":memory:");
  try {
    for (let i = 0; i < 2_600; i++) {
      await putJob(source, { type: "fan_out", eventId: `01JCOPY${String(i).padStart(6, "0")}` });
    }
    const report = await copyStore(source, target, { retentionMs: RETENTION_MS });
    // 2,600 jobs and the wake key; at most 1,000 mutations (and 80 KiB of keys) per commit
    assert.equal(report.copied, 2_601);
    assert.ok(report.commits >= 3, `${report.commits} commits`);
    assert.deepEqual(await entriesOf(target), await entriesOf(source));
  } finally {
    source.close();
    target.close();
  }
});

Deno.test("store copy: a target that holds entries is refused and left as it was; force replaces it", async () => {
  const source = await openStore(":memory:");
  const target = await openStore(":memory:");
  try {
    await populate(source);
    await putJob(target, { type: "fan_out", eventId: "01JTARGETONLY" });
    const targetBefore = await entriesOf(target);
    await assert.rejects(
      copyStore(source, target, { retentionMs: RETENTION_MS }),
      (error: unknown) =>
        error instanceof StoreCopyRefusedError && /target store is not empty/.test(error.message),
    );
    assert.deepEqual(await entriesOf(target), targetBefore, "nothing was written");
    const report = await copyStore(source, target, { retentionMs: RETENTION_MS, force: true });
    assert.equal(report.cleared, targetBefore.length);
    assert.ok(report.countsMatch);
    assert.deepEqual(await entriesOf(target), await entriesOf(source));
  } finally {
    source.close();
    target.close();
  }
});

/** A store whose commits silently drop every write of one key family. */
function droppingFamily(kv: Kv, family: string): Kv {
  return new Proxy(kv, {
    get(store, property) {
      if (property !== "atomic") {
        const member = Reflect.get(store, property, store);
        return typeof member === "function" ? member.bind(store) : member;
      }
      return () => {
        const op = store.atomic();
        const wrapped: AtomicOperation = new Proxy(op, {
          get(inner, name) {
            if (name === "set") {
              return (key: KvKey, value: unknown, options?: { expireIn?: number }) => {
                if (key[0] !== family) inner.set(key, value, options);
                return wrapped;
              };
            }
            const member = Reflect.get(inner, name, inner);
            return typeof member === "function" ? member.bind(inner) : member;
          },
        });
        return wrapped;
      };
    },
  });
}

Deno.test("store copy: a family with fewer entries in the target is reported as a mismatch", async () => {
  const source = await openStore(":memory:");
  const target = await openStore(":memory:");
  try {
    await populate(source);
    const report = await copyStore(source, droppingFamily(target, "token"), {
      retentionMs: RETENTION_MS,
    });
    assert.equal(report.countsMatch, false);
    const token = report.families.find((row) => row.family === "token");
    assert.deepEqual(token, { family: "token", source: 1, target: 0 });
    const table = formatCountTable(report.families);
    assert.match(table, /^token\s+1\s+0\s+MISMATCH$/m);
    assert.match(table, /^total\s+\d+\s+\d+\s+MISMATCH$/m);
  } finally {
    source.close();
    target.close();
  }
});

Deno.test({
  name: "store copy: Deno KV to PostgreSQL and back gives the same entries",
  ignore: noPostgres,
  async fn() {
    const database = (await startTestPostgres())!;
    const first = await openStore(":memory:");
    const back = await openStore(":memory:");
    const middle = await openStore({ kvPath: undefined, databaseUrl: database.url });
    try {
      await populate(first);
      const original = await entriesOf(first);
      const there = await copyStore(first, middle, { retentionMs: RETENTION_MS });
      assert.ok(there.countsMatch);
      assert.deepEqual(await entriesOf(middle), original);
      const home = await copyStore(middle, back, { retentionMs: RETENTION_MS });
      assert.ok(home.countsMatch);
      assert.deepEqual(await entriesOf(back), original);
    } finally {
      first.close();
      back.close();
      await closeStore(middle);
      await database.stop();
    }
  },
});

Deno.test({
  name: "store copy: every family the app writes with an expiry gets a lifetime in the copy",
  ignore: noPostgres,
  async fn() {
    const source = await startTestPostgres();
    const copy = await startTestPostgres();
    const kv = await openStore({ kvPath: undefined, databaseUrl: source!.url });
    const target = await openStore({ kvPath: undefined, databaseUrl: copy!.url });
    const sql = postgres(source!.url, { max: 1, onnotice: () => {} });
    const copySql = postgres(copy!.url, { max: 1, onnotice: () => {} });
    try {
      await populate(kv);
      const expiring = async (client: postgres.Sql) => {
        const rows = await client<{ key: Uint8Array; ms: number }[]>`
          SELECT key, extract(epoch FROM expires_at - now()) * 1000 AS ms FROM kv_entries
          WHERE expires_at IS NOT NULL`;
        return rows.map((row) => ({ family: String(decodeKey(row.key)[0]), ms: Number(row.ms) }));
      };
      const written = await expiring(sql);
      assert.ok(written.length > 0);
      for (const { family } of written) {
        assert.ok(familyExpires(family), `${family} is written with an expiry: give it a lifetime`);
      }
      const startedAt = Date.now();
      await copyStore(kv, target, { retentionMs: RETENTION_MS });
      const copied = await expiring(copySql);
      assert.deepEqual(
        [...new Set(copied.map((row) => row.family))].sort(),
        [...new Set(written.map((row) => row.family))].sort(),
        "the same families expire in the copy",
      );
      const session = copied.find((row) => row.family === "sessions")!;
      assert.ok(Math.abs(session.ms - SESSION_LIFETIME_MS) < Date.now() - startedAt + 5_000);
    } finally {
      await sql.end();
      await copySql.end();
      await closeStore(kv);
      await closeStore(target);
      await source!.stop();
      await copy!.stop();
    }
  },
});

Deno.test({
  name: "store copy: a closed issue's marker gets its lifetime again, an open issue stays kept",
  ignore: noPostgres,
  async fn() {
    const source = await openStore(":memory:");
    const database = (await startTestPostgres())!;
    const target = await openStore({ kvPath: undefined, databaseUrl: database.url });
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const issue = (number: number) => ({
        repository: "octo/app",
        number,
        title: `issue ${number}`,
        url: `https://github.com/octo/app/issues/${number}`,
        createdAt: 1_000,
        updatedAt: 2_000,
        labels: [],
      });
      assert.ok(await applyIssueChange(source, "g1", { kind: "open", issue: issue(1) }));
      assert.ok(await applyIssueChange(source, "g1", { kind: "open", issue: issue(2) }));
      assert.ok(
        await applyIssueChange(source, "g1", {
          kind: "closed",
          repository: "octo/app",
          number: 2,
          updatedAt: 3_000,
        }),
      );
      const startedAt = Date.now();
      await copyStore(source, target, { retentionMs: RETENTION_MS });
      const rows = await sql<{ key: Uint8Array; ms: number | null }[]>`
        SELECT key, extract(epoch FROM expires_at - now()) * 1000 AS ms FROM kv_entries`;
      const issues = rows.map((row) => ({ key: decodeKey(row.key), ms: row.ms }))
        .filter((row) => row.key[0] === "open_issues");
      assert.deepEqual(issues.map((row) => row.key[3]).sort(), [1, 2]);
      const open = issues.find((row) => row.key[3] === 1)!;
      const closed = issues.find((row) => row.key[3] === 2)!;
      assert.equal(open.ms, null, "an open issue never expires");
      assert.notEqual(closed.ms, null, "a closed issue's marker expires");
      assert.ok(
        Math.abs(Number(closed.ms) - CLOSED_ISSUE_KEEP_MS) < Date.now() - startedAt + 5_000,
        `the marker is kept CLOSED_KEEP_MS again (${closed.ms} ms)`,
      );
    } finally {
      await sql.end();
      source.close();
      await closeStore(target);
      await database.stop();
    }
  },
});

if (noPostgres) {
  console.error(
    "\n!!! PostgreSQL is not available (no PG_TEST_URL, no /usr/lib/postgresql/*/bin): SKIPPED " +
      "the PostgreSQL tests of tests/store/store_copy_test.ts\n",
  );
}
