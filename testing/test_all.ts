/**
 * The test suite on every backend (`deno task test`): the whole suite on Deno KV, then the
 * store, delivery, ingest, noise, instance, jobs and chat-ops files again on PostgreSQL
 * (`TEST_STORE=postgres`, testing/test_store.ts). The PostgreSQL run uses the server named by
 * `PG_TEST_URL`, else one throw-away cluster started here from Debian's binaries and stopped at
 * the end. Without either, it says loudly which files it skipped.
 *
 *   deno run -A testing/test_all.ts [test files…]   (files: run only those, on both backends)
 *
 * Prints each run's own summary, then one line per run; exits non-zero when either run failed.
 */
import { stripVTControlCharacters } from "node:util";
import { startTestCluster, type TestCluster } from "./postgres.ts";

/** Test files whose names start with these run on PostgreSQL too. */
const POSTGRES_PREFIXES = [
  "store_",
  "delivery_",
  "ingest_",
  "noise_",
  "instances_",
  "jobs_",
  "queue_",
  "chatops_",
  "auth_session_",
  "auth_tokens_",
  "route_store_",
  "group_store_",
  "target_claims_",
];

/**
 * Files of those groups that are not run again: they choose their backends themselves (the
 * conformance suite, the PostgreSQL-only and outage tests, store copies between backends) or
 * read source files only (store_boundary).
 */
const NOT_AGAIN = new Set([
  "store_backend_test.ts",
  "store_postgres_test.ts",
  "store_postgres_outage_test.ts",
  "store_copy_test.ts",
  "store_copy_task_test.ts",
  "store_start_retry_test.ts",
  "ingest_store_outage_test.ts",
  "store_boundary_test.ts",
]);

/** The test files that run on PostgreSQL too, out of `files` (all tests when empty). */
async function postgresFiles(files: string[]): Promise<string[]> {
  const chosen: string[] = [];
  const names = files.length > 0 ? files : await allTestFiles();
  for (const file of names) {
    const name = file.split("/").at(-1)!;
    if (NOT_AGAIN.has(name) || !name.endsWith("_test.ts")) continue;
    if (POSTGRES_PREFIXES.some((prefix) => name.startsWith(prefix))) chosen.push(file);
  }
  return chosen.sort();
}

/** Every file under `folder` and its subfolders (test files sit in area folders). */
async function allTestFiles(folder = "tests"): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (entry.isFile) files.push(`${folder}/${entry.name}`);
    if (entry.isDirectory) files.push(...await allTestFiles(`${folder}/${entry.name}`));
  }
  return files;
}

/** Deno's summary line (`ok | N passed | …`) without its colours, or null for another line. */
function summaryIn(line: string): string | null {
  // deno colours its output when it thinks a terminal reads it; the totals are read without.
  const plain = stripVTControlCharacters(line);
  return /^(ok|FAILED) \| \d+ passed/.test(plain) ? plain : null;
}

/** One run's outcome: whether it passed and its deno summary line. */
interface RunResult {
  ok: boolean;
  summary: string;
}

/** Runs `deno test` with `env` on `files` (the whole suite when empty), echoing its output. */
async function runTests(files: string[], env: Record<string, string>): Promise<RunResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--parallel", ...files],
    env,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let summary = "";
  let pending = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) summary = summaryIn(line) ?? summary;
  }
  summary = summaryIn(pending) ?? summary;
  const status = await child.status;
  return { ok: status.success, summary: summary || "no summary (deno test did not finish)" };
}

/** The PostgreSQL server of the second run: PG_TEST_URL, a cluster of our own, or none. */
async function postgresServer(): Promise<{ url: string; cluster?: TestCluster } | null> {
  const given = Deno.env.get("PG_TEST_URL");
  if (given) return { url: given };
  const cluster = await startTestCluster();
  return cluster ? { url: cluster.adminUrl, cluster } : null;
}

async function main(): Promise<number> {
  const files = Deno.args;
  const results: [string, RunResult][] = [];

  console.log("\n=== Run 1: Deno KV ===\n");
  results.push(["Deno KV", await runTests(files, { TEST_STORE: "denokv" })]);

  const again = await postgresFiles(files);
  if (again.length > 0) {
    const server = await postgresServer();
    if (server) {
      try {
        console.log(`\n=== Run 2: PostgreSQL (${again.length} files) ===\n`);
        results.push([
          "PostgreSQL",
          await runTests(again, { TEST_STORE: "postgres", PG_TEST_URL: server.url }),
        ]);
      } finally {
        server.cluster?.stopNow();
      }
    } else {
      console.warn(
        "\n!!! PostgreSQL is not available (no PG_TEST_URL, no /usr/lib/postgresql/*/bin): " +
          `SKIPPED the PostgreSQL run of these ${again.length} test files:\n` +
          again.map((file) => `  - ${file}`).join("\n") + "\n",
      );
    }
  }

  console.log("\n=== Summary ===");
  for (const [backend, result] of results) console.log(`${backend}: ${result.summary}`);
  return results.every(([, result]) => result.ok) ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
