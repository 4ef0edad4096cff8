/**
 * `deno task store:copy` (scripts/store_copy.ts, lib/ops/store_copy_task.ts): its arguments are
 * checked with one clear line each, a store is never copied onto itself, the counts table is
 * printed, a non-empty target is refused, and no line ever holds a database password.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { runStoreCopy } from "../../lib/ops/store_copy_task.ts";
import { putJob } from "../../lib/store/delivery/jobs.ts";
import { openStore } from "../../lib/store/kv.ts";
import { saveDiscordLink } from "../../lib/store/auth/links.ts";

const PASSWORD = "s3cretPw";

/** Runs the task, capturing what it prints. */
async function run(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const error: string[] = [];
  const code = await runStoreCopy(args, env, {
    out: (line) => out.push(line),
    error: (line) => error.push(line),
  });
  const all = [...out, ...error].join("\n");
  assert.doesNotMatch(all, new RegExp(PASSWORD), "no line holds a password");
  return { code, out: out.join("\n"), error: error.join("\n") };
}

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A KV file with a link and a job in it. */
async function sourceFile(dir: string): Promise<string> {
  const path = join(dir, "source.kv");
  const kv = await openStore(path);
  await saveDiscordLink(kv, { discordUserId: "9001", userId: "7", login: "hubot", linkedAt: 1 });
  await putJob(kv, { type: "fan_out", eventId: "01JTASKTEST" });
  kv.close();
  return path;
}

Deno.test("store:copy task: arguments that cannot be run get one clear line and exit 2", async () => {
  const db = `postgres://app:${PASSWORD}@db.internal:5432/switchyard`;
  const cases: Array<[string[], RegExp]> = [
    [[], /--from is missing/],
    [["--from", "a.kv"], /--to is missing/],
    [["--from"], /--from needs a KV file path or a postgres:\/\/ URL/],
    [["--from=a.kv", "--from=b.kv", "--to=c.kv"], /--from is given twice/],
    [["--from=a.kv", "--to=b.kv", "--fast"], /unknown argument "--fast"/],
    [["--from", ":memory:", "--to", "b.kv"], /--from cannot be :memory:/],
    [
      ["--from", `postgres://app:${PASSWORD}@db.internal`, "--to", "b.kv"],
      /--from must be postgres:\/\/user:password@host:port\/database/,
    ],
    [
      ["--from", "a.kv", "--to", `mysql://app:${PASSWORD}@db/x`],
      /--to must be a KV file path, a postgres:\/\/ URL/,
    ],
    [["--from", "a.kv", "--to", "http://example.com/kv"], /--to must be a KV file path/],
    [["--from", "a\nb.kv", "--to", "b.kv"], /--from holds control characters/],
    [[`--from=${"x".repeat(5000)}`, "--to=b.kv"], /longer than 4096 characters/],
    [Array(9).fill("--force"), /too many arguments \(9\)/],
    [[`--user=app:${PASSWORD}`], /unknown argument "--user"/],
    [["a.kv", "--to", "b.kv"], /unknown argument \(a value not after --from or --to\)/],
    [["--from", db, "--to", db.replace(PASSWORD, "other")], /--from and --to name the same store/],
    [
      ["--from", "./no/such/file.kv", "--to", "b.kv"],
      /--from: there is no KV file at \.\/no\/such\/file\.kv/,
    ],
  ];
  for (const [args, expected] of cases) {
    const result = await run(args);
    assert.equal(result.code, 2, args.join(" ").slice(0, 80));
    const lines = result.error.split("\n");
    assert.equal(lines.length, 2, result.error);
    assert.match(lines[0], /^store:copy: /);
    assert.match(lines[0], expected);
    assert.match(lines[1], /^usage: deno task store:copy --from/);
  }
  const badRetention = await run(["--from", db, "--to", "b.kv"], { SEND_LOG_RETENTION_DAYS: "0" });
  assert.equal(badRetention.code, 2);
  assert.match(badRetention.error, /SEND_LOG_RETENTION_DAYS must be a whole number from 1 to 3650/);
});

Deno.test("store:copy task: the same KV file under two spellings is refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = await sourceFile(dir);
    const result = await run([
      "--from",
      path,
      "--to",
      join(dir, ".", "..", dir.split("/").pop()!, "source.kv"),
    ]);
    assert.equal(result.code, 2);
    assert.match(result.error, /name the same store/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("store:copy task: copies a KV file into a new one, prints the counts, refuses it next time", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const from = await sourceFile(dir);
    const to = join(dir, "nested", "target.kv");
    const first = await run(["--from", from, "--to", to]);
    assert.equal(first.code, 0, first.error);
    assert.match(first.out, new RegExp(`^copying ${from} to ${to}$`, "m"));
    assert.match(first.out, /^discord_links\s+1\s+1\s+ok$/m);
    assert.match(first.out, /^jobs\s+1\s+1\s+ok$/m);
    assert.match(first.out, /^copied \d+ entries in 1 commit$/m);
    const kv = await openStore(to);
    assert.equal((await Array.fromAsync(kv.list({ prefix: ["discord_links"] }))).length, 1);
    kv.close();
    const again = await run([`--from=${from}`, `--to=${to}`]);
    assert.equal(again.code, 1);
    assert.match(again.error, /^store:copy: the target store is not empty \(use --force/);
    const forced = await run([`--from=${from}`, `--to=${to}`, "--force"]);
    assert.equal(forced.code, 0, forced.error);
    assert.match(forced.out, /^emptied the target first: \d+ entries$/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("store:copy task: an unreachable PostgreSQL fails with one line that holds no password", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const from = await sourceFile(dir);
    const to = `postgres://app:${PASSWORD}@127.0.0.1:${closedPort()}/switchyard`;
    const result = await run(["--from", from, "--to", to]);
    assert.equal(result.code, 1);
    assert.match(result.out, /^copying .* to postgres:\/\/app@127\.0\.0\.1:\d+\/switchyard$/m);
    assert.match(result.error, /^store:copy: Store temporarily unavailable: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("store:copy task: the deno task runs the script and exits 2 with the usage", async () => {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "store:copy", "--from", "a.kv"],
    cwd: PROJECT_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(result.code, 2);
  const stderr = new TextDecoder().decode(result.stderr);
  assert.match(stderr, /store:copy: --to is missing\nusage: deno task store:copy/);
});
