/**
 * `deno task store:copy`: opens the two stores the arguments name, copies one into the other
 * (lib/store/copy.ts) and prints the counts per key family. Exit code 0 when every count
 * matches, 1 when the copy failed or a count differs, 2 for arguments that cannot be run.
 * Nothing printed holds a database password.
 */
import type { Kv } from "../store/backend/types.ts";
import { copyStore, formatCountTable } from "../store/copy.ts";
import { closeStore, openStore } from "../store/kv.ts";
import { DEFAULT_RETENTION_DAYS, retentionMs } from "../store/delivery/send_logs.ts";
import {
  describeStore,
  parseStoreCopyArgs,
  sameStore,
  STORE_COPY_USAGE,
  type StoreCopyArgs,
  StoreCopyUsageError,
  type StoreLocation,
  withoutPasswords,
} from "./store_copy_args.ts";

/** Where the task writes: the report, and errors. */
interface TaskOutput {
  out(line: string): void;
  error(line: string): void;
}

/** Connections each PostgreSQL store of the copy opens. */
const COPY_POOL_SIZE = 4;

/** Runs the task; returns its exit code. */
export async function runStoreCopy(
  args: readonly string[],
  env: Record<string, string | undefined>,
  output: TaskOutput,
): Promise<number> {
  let parsed: StoreCopyArgs;
  let days: number;
  try {
    parsed = parseStoreCopyArgs(args);
    days = retentionDays(env.SEND_LOG_RETENTION_DAYS);
    await checkStores(parsed);
  } catch (error) {
    if (!(error instanceof StoreCopyUsageError)) throw error;
    output.error(`store:copy: ${error.message}`);
    output.error(STORE_COPY_USAGE);
    return 2;
  }
  const stores = [parsed.from, parsed.to];
  output.out(`copying ${describeStore(parsed.from)} to ${describeStore(parsed.to)}`);
  const opened: Kv[] = [];
  try {
    const source = await open(parsed.from);
    opened.push(source);
    const target = await open(parsed.to);
    opened.push(target);
    const report = await copyStore(source, target, {
      force: parsed.force,
      retentionMs: retentionMs(days),
    });
    if (report.cleared > 0) output.out(`emptied the target first: ${report.cleared} entries`);
    output.out(formatCountTable(report.families));
    const commits = report.commits === 1 ? "1 commit" : `${report.commits} commits`;
    output.out(`copied ${report.copied} entries in ${commits}`);
    if (!report.countsMatch) {
      output.error("store:copy: the counts differ (MISMATCH above): do not start on the target");
      return 1;
    }
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.error(`store:copy: ${withoutPasswords(message, stores)}`);
    return 1;
  } finally {
    await Promise.all(opened.map((kv) => closeStore(kv)));
  }
}

/** SEND_LOG_RETENTION_DAYS as the server reads it: 1 to 3650, 30 when unset. */
function retentionDays(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_RETENTION_DAYS;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new StoreCopyUsageError("SEND_LOG_RETENTION_DAYS must be a whole number from 1 to 3650");
  }
  return days;
}

/** Refuses one store copied onto itself, and a source KV file that does not exist. */
async function checkStores(args: StoreCopyArgs): Promise<void> {
  if (await sameStore(args.from, args.to)) {
    throw new StoreCopyUsageError("--from and --to name the same store");
  }
  if (args.from.kind === "kv-file") {
    const info = await Deno.stat(args.from.path).catch(() => null);
    if (!info?.isFile) {
      throw new StoreCopyUsageError(`--from: there is no KV file at ${args.from.path}`);
    }
  }
  if (args.to.kind === "kv-file") {
    const info = await Deno.stat(args.to.path).catch(() => null);
    if (info && !info.isFile) {
      throw new StoreCopyUsageError(`--to: ${args.to.path} is not a file`);
    }
  }
}

async function open(location: StoreLocation): Promise<Kv> {
  if (location.kind === "postgres") {
    return await openStore({
      kvPath: undefined,
      databaseUrl: location.url,
      databasePoolSize: COPY_POOL_SIZE,
    });
  }
  return await openStore(location.kind === "kv-file" ? location.path : location.url);
}
