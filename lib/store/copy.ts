/**
 * Copying a whole store to another (`deno task store:copy`): every entry of the source is
 * written to the target in commits that keep every backend's limits, then the entries of each
 * key family (the key's first part) are counted on both sides.
 *
 * Run it while no instance uses either store: a list is not a snapshot, so writes made during
 * the copy may be missed. Values (counters stay `KvU64`) and keys are copied as they are;
 * versionstamps are new. Expiry cannot be read from Deno KV, so expiring entries get their
 * family's lifetime again (./copy_lifetimes.ts).
 */
import { encodeKey } from "./backend/key_codec.ts";
import { MAX_MUTATIONS, MAX_TOTAL_KEY_BYTES, MAX_TOTAL_MUTATION_BYTES } from "./backend/limits.ts";
import type { AtomicOperation, Kv, KvKey } from "./backend/types.ts";
import { encodeValue } from "./backend/value_codec.ts";
import { CopiedLifetimes } from "./copy_lifetimes.ts";

/** How a copy runs. */
interface CopyOptions {
  /** Empty a target that holds entries first, instead of refusing it. */
  force?: boolean;
  /** The lifetime of send logs and their companions (SEND_LOG_RETENTION_DAYS), in ms. */
  retentionMs: number;
  /** The clock the lifetimes given again count from. */
  now?: () => number;
}

/** The entries of one key family in the source and in the target after the copy. */
interface FamilyCount {
  family: string;
  source: number;
  target: number;
}

/** What a copy did and whether the counts agree. */
interface CopyReport {
  /** Entries written to the target. */
  copied: number;
  /** Commits they took. */
  commits: number;
  /** Entries deleted from the target first (only with `force`). */
  cleared: number;
  /** Per family, in family order. */
  families: FamilyCount[];
  /** True when every family has as many entries in the target as in the source. */
  countsMatch: boolean;
}

/** A copy that was refused before anything was written. */
export class StoreCopyRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreCopyRefusedError";
  }
}

/** Room kept below the byte limits: backends measure values slightly differently. */
const BYTE_MARGIN = 0.9;

/** Copies every entry of `source` into `target` and compares the counts per family. */
export async function copyStore(source: Kv, target: Kv, options: CopyOptions): Promise<CopyReport> {
  let cleared = 0;
  if (await holdsEntries(target)) {
    if (!options.force) {
      throw new StoreCopyRefusedError(
        "the target store is not empty (use --force to empty it and copy over it)",
      );
    }
    cleared = await clearStore(target);
  }
  const lifetimes = new CopiedLifetimes({
    now: (options.now ?? Date.now)(),
    retentionMs: options.retentionMs,
  });
  const writer = new ChunkedWriter(target);
  const sourceCounts = new Map<string, number>();
  for await (const entry of source.list({ prefix: [] })) {
    const family = familyOf(entry.key);
    sourceCounts.set(family, (sourceCounts.get(family) ?? 0) + 1);
    await writer.set(entry.key, entry.value, lifetimes.of(entry.key, entry.value));
  }
  await writer.flush();
  const families = compareCounts(sourceCounts, await countFamilies(target));
  return {
    copied: writer.written,
    commits: writer.commits,
    cleared,
    families,
    countsMatch: families.every((row) => row.source === row.target),
  };
}

/** Entries per key family of a store. */
async function countFamilies(kv: Kv): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const entry of kv.list({ prefix: [] })) {
    const family = familyOf(entry.key);
    counts.set(family, (counts.get(family) ?? 0) + 1);
  }
  return counts;
}

/** One row per family present on either side, in family order. */
function compareCounts(
  source: ReadonlyMap<string, number>,
  target: ReadonlyMap<string, number>,
): FamilyCount[] {
  const names = [...new Set([...source.keys(), ...target.keys()])].sort();
  return names.map((family) => ({
    family,
    source: source.get(family) ?? 0,
    target: target.get(family) ?? 0,
  }));
}

/** The counts as a text table, mismatches marked, with a total line. */
export function formatCountTable(rows: readonly FamilyCount[]): string {
  const header = ["family", "source", "target", ""];
  const total = rows.reduce((sum, row) => [sum[0] + row.source, sum[1] + row.target], [0, 0]);
  const body = rows.map((row) => [
    row.family,
    String(row.source),
    String(row.target),
    row.source === row.target ? "ok" : "MISMATCH",
  ]);
  body.push([
    "total",
    String(total[0]),
    String(total[1]),
    total[0] === total[1] ? "ok" : "MISMATCH",
  ]);
  const widths = header.map((_, i) => Math.max(header[i].length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))
      .join("  ").trimEnd();
  return [line(header), ...body.map(line)].join("\n");
}

/** A key family's name: the key's first part. */
function familyOf(key: KvKey): string {
  const first = key[0];
  return typeof first === "string" ? first : `(${typeof first} key)`;
}

async function holdsEntries(kv: Kv): Promise<boolean> {
  for await (const _ of kv.list({ prefix: [] }, { limit: 1 })) return true;
  return false;
}

/** Deletes every entry of a store; returns how many. */
async function clearStore(kv: Kv): Promise<number> {
  const writer = new ChunkedWriter(kv);
  for await (const entry of kv.list({ prefix: [] })) await writer.delete(entry.key);
  await writer.flush();
  return writer.written;
}

/**
 * Gathers mutations into commits no larger than the smallest backend allows: at most 1,000
 * mutations, 80 KiB of keys and 800 KiB of keys (counted twice) and values, and no checks.
 */
class ChunkedWriter {
  readonly #kv: Kv;
  #op: AtomicOperation | undefined;
  #mutations = 0;
  #keyBytes = 0;
  #totalBytes = 0;
  written = 0;
  commits = 0;

  constructor(kv: Kv) {
    this.#kv = kv;
  }

  async set(key: KvKey, value: unknown, expireIn: number | undefined): Promise<void> {
    const keyBytes = encodeKey(key).length;
    await this.#makeRoom(keyBytes, 2 * keyBytes + encodeValue(value).bytes.length);
    this.#op!.set(key, value, expireIn === undefined ? undefined : { expireIn });
  }

  async delete(key: KvKey): Promise<void> {
    const keyBytes = encodeKey(key).length;
    await this.#makeRoom(keyBytes, 2 * keyBytes);
    this.#op!.delete(key);
  }

  /** Commits what is gathered. */
  async flush(): Promise<void> {
    if (!this.#op || this.#mutations === 0) return;
    const result = await this.#op.commit();
    if (!result.ok) throw new Error("a copy commit was refused by the target store");
    this.written += this.#mutations;
    this.commits++;
    this.#op = undefined;
    this.#mutations = this.#keyBytes = this.#totalBytes = 0;
  }

  async #makeRoom(keyBytes: number, totalBytes: number): Promise<void> {
    const full = this.#mutations + 1 > MAX_MUTATIONS ||
      this.#keyBytes + keyBytes > MAX_TOTAL_KEY_BYTES * BYTE_MARGIN ||
      this.#totalBytes + totalBytes > MAX_TOTAL_MUTATION_BYTES * BYTE_MARGIN;
    if (full) await this.flush();
    this.#op ??= this.#kv.atomic();
    this.#mutations++;
    this.#keyBytes += keyBytes;
    this.#totalBytes += totalBytes;
  }
}
