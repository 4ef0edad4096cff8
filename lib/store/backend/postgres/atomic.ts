/**
 * Atomic operations on PostgreSQL, with Deno KV's semantics.
 *
 * One commit is one transaction (READ COMMITTED):
 * 1. a transaction-scoped advisory lock on every key it checks or writes, taken in a fixed
 *    order (so two commits never wait on each other in a circle), held until commit;
 * 2. the checked and counted keys are read (after the locks, so every commit that wrote them
 *    has finished) and each check compared: a versionstamp that differs, or a key that exists
 *    when the check says null, ends the commit with `{ ok: false }`;
 * 3. one version is drawn from `kv_versions` (after the locks, so a key's versionstamp only
 *    grows), and the sets, deletes and counters written in one statement with one `pg_notify`
 *    that carries the hashes of the keys written (see ./watch.ts).
 * A serialization failure or deadlock runs the whole commit again (a few times, with backoff).
 */
import { encodeKey } from "../key_codec.ts";
import { checkCommitSize, checkExpireIn, checkWriteKey } from "../limits.ts";
import { StoreUnavailableError } from "../errors.ts";
import {
  type AtomicCheck,
  type AtomicOperation,
  type KvCommitError,
  type KvCommitResult,
  type KvKey,
  KvU64,
} from "../types.ts";
import { encodeValue, u64Bytes, ValueKind } from "../value_codec.ts";
import { isRetryableConflict, reachable, type Sql, type TransactionSql } from "./connection.ts";
import { keyHex, versionstampOf } from "./rows.ts";
import { keyHash, notificationOf, NOTIFY_CHANNEL } from "./key_hash.ts";

/** A mutation as the caller gave it. */
type Mutation =
  | { type: "set"; key: KvKey; value: unknown; expireIn?: number }
  | { type: "delete"; key: KvKey }
  | { type: "sum" | "min" | "max"; key: KvKey; value: KvU64 };

/** What a key holds once the commit's mutations are applied in order. */
type Final =
  | { op: "set"; kind: number; bytes: Uint8Array; expireIn: number }
  | { op: "delete" };

/** A stored entry as the commit reads it. */
interface Current {
  kind: number;
  value: Uint8Array;
  version: string;
}

/** How often a commit that lost a serialization conflict is run again. */
const COMMIT_ATTEMPTS = 8;

/** An atomic operation that commits to PostgreSQL. */
export class PostgresAtomicOperation implements AtomicOperation {
  readonly #sql: Sql;
  readonly #checks: AtomicCheck[] = [];
  readonly #mutations: Mutation[] = [];

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  check(...checks: AtomicCheck[]): this {
    this.#checks.push(...checks);
    return this;
  }

  sum(key: KvKey, n: bigint): this {
    this.#mutations.push({ type: "sum", key, value: new KvU64(n) });
    return this;
  }

  min(key: KvKey, n: bigint): this {
    this.#mutations.push({ type: "min", key, value: new KvU64(n) });
    return this;
  }

  max(key: KvKey, n: bigint): this {
    this.#mutations.push({ type: "max", key, value: new KvU64(n) });
    return this;
  }

  set(key: KvKey, value: unknown, options?: { expireIn?: number }): this {
    this.#mutations.push({ type: "set", key, value, expireIn: options?.expireIn });
    return this;
  }

  delete(key: KvKey): this {
    this.#mutations.push({ type: "delete", key });
    return this;
  }

  async commit(): Promise<KvCommitResult | KvCommitError> {
    const plan = planCommit(this.#checks, this.#mutations);
    for (let attempt = 1;; attempt++) {
      try {
        return await reachable(() => this.#sql.begin((tx) => runCommit(tx, plan)));
      } catch (error) {
        if (!isRetryableConflict(error)) throw error;
        if (attempt >= COMMIT_ATTEMPTS) throw new StoreUnavailableError(error);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
      }
    }
  }
}

/** A commit encoded and checked against the limits, ready to run (and run again). */
interface CommitPlan {
  checks: { hex: string; versionstamp: string | null }[];
  mutations: { hex: string; mutation: Mutation; encoded?: { kind: number; bytes: Uint8Array } }[];
  /** Every key checked or written, as advisory lock ids in lock order. */
  locks: string[];
  /** Keys whose stored value the commit must read (checks and counters). */
  reads: string[];
  notification: string;
}

function planCommit(checks: AtomicCheck[], mutations: Mutation[]): CommitPlan {
  let checkKeyBytes = 0;
  let mutationKeyBytes = 0;
  let valueBytes = 0;
  const hashes = new Map<string, { lock: bigint; notify: string }>();
  const remember = (hex: string, encoded: Uint8Array) => {
    if (!hashes.has(hex)) hashes.set(hex, keyHash(encoded));
  };
  const plannedChecks = checks.map((check) => {
    const encoded = encodeKey(check.key);
    checkWriteKey(encoded);
    checkKeyBytes += encoded.length;
    const hex = keyHex(encoded);
    remember(hex, encoded);
    return { hex, versionstamp: check.versionstamp };
  });
  const written = new Set<string>();
  const plannedMutations = mutations.map((mutation) => {
    const key = encodeKey(mutation.key);
    checkWriteKey(key);
    mutationKeyBytes += key.length;
    const hex = keyHex(key);
    remember(hex, key);
    written.add(hex);
    if (mutation.type === "delete") return { hex, mutation };
    if (mutation.type === "set") checkExpireIn(mutation.expireIn);
    const encoded = encodeValue(mutation.value);
    valueBytes += encoded.bytes.length;
    return { hex, mutation, encoded };
  });
  checkCommitSize({
    checks: checks.length,
    mutations: mutations.length,
    checkKeyBytes,
    mutationKeyBytes,
    valueBytes,
  });
  const counted = plannedMutations.filter((m) => m.mutation.type !== "set").map((m) => m.hex);
  const locks = [...new Set([...hashes.values()].map((hash) => hash.lock))]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map(String);
  return {
    checks: plannedChecks,
    mutations: plannedMutations,
    locks,
    reads: [...new Set([...plannedChecks.map((c) => c.hex), ...counted])],
    notification: notificationOf([...written].map((hex) => hashes.get(hex)!.notify)),
  };
}

async function runCommit(
  tx: TransactionSql,
  plan: CommitPlan,
): Promise<KvCommitResult | KvCommitError> {
  if (plan.locks.length > 0) {
    await tx`SELECT count(pg_advisory_xact_lock(id)) FROM (
      SELECT unnest(${plan.locks}::bigint[]) AS id ORDER BY 1
    ) AS ordered`;
  }
  const current = new Map<string, Current>();
  if (plan.reads.length > 0) {
    const rows = await tx<(Current & { hex: string })[]>`
      SELECT encode(key, 'hex') AS hex, kind, value, version FROM kv_entries
      WHERE key = ANY (ARRAY(SELECT decode(unnest(${plan.reads}::text[]), 'hex')))
        AND (expires_at IS NULL OR expires_at > now())`;
    for (const row of rows) current.set(row.hex, row);
  }
  for (const check of plan.checks) {
    const stored = current.get(check.hex);
    const versionstamp = stored ? versionstampOf(stored.version) : null;
    if (versionstamp !== check.versionstamp) return { ok: false };
  }
  const finals = applyMutations(plan, current);
  const sets = [...finals].filter(([, final]) => final.op === "set") as [
    string,
    Extract<Final, { op: "set" }>,
  ][];
  const deletes = [...finals].filter(([, final]) => final.op === "delete").map(([hex]) => hex);
  const [{ version }] = await tx<{ version: string }[]>`
    WITH drawn AS (SELECT nextval('kv_versions') AS version),
    written AS (
      INSERT INTO kv_entries (key, kind, value, version, expires_at)
      SELECT decode(k, 'hex'), kind, decode(v, 'hex'), drawn.version,
        CASE WHEN e < 0 THEN NULL ELSE now() + e * interval '1 millisecond' END
      FROM unnest(
        ${sets.map(([hex]) => hex)}::text[],
        ${sets.map(([, final]) => final.kind)}::int2[],
        ${sets.map(([, final]) => keyHex(final.bytes))}::text[],
        ${sets.map(([, final]) => final.expireIn)}::int8[]
      ) AS given(k, kind, v, e), drawn
      ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, value = excluded.value,
        version = excluded.version, expires_at = excluded.expires_at
      RETURNING 1
    ),
    deleted AS (
      DELETE FROM kv_entries
      WHERE key = ANY (ARRAY(SELECT decode(unnest(${deletes}::text[]), 'hex')))
      RETURNING 1
    ),
    notified AS (SELECT pg_notify(${NOTIFY_CHANNEL}, ${plan.notification}))
    SELECT drawn.version FROM drawn, notified`;
  return { ok: true, versionstamp: versionstampOf(version) };
}

/** Applies the mutations in order over what is stored: the final state of each key written. */
function applyMutations(plan: CommitPlan, current: Map<string, Current>): Map<string, Final> {
  const finals = new Map<string, Final>();
  for (const { hex, mutation, encoded } of plan.mutations) {
    if (mutation.type === "delete") {
      finals.set(hex, { op: "delete" });
    } else if (mutation.type === "set") {
      finals.set(hex, { op: "set", ...encoded!, expireIn: mutation.expireIn ?? -1 });
    } else {
      const before = counterBefore(finals.get(hex), current.get(hex), mutation.type);
      const operand = mutation.value.value;
      const after = before === null
        ? operand
        : mutation.type === "sum"
        ? (before + operand) & 0xffff_ffff_ffff_ffffn
        : mutation.type === "min"
        ? (before < operand ? before : operand)
        : (before > operand ? before : operand);
      finals.set(hex, { op: "set", kind: ValueKind.U64, bytes: u64Bytes(after), expireIn: -1 });
    }
  }
  return finals;
}

/** The counter a sum/min/max starts from: null when the key has no value. */
function counterBefore(
  pending: Final | undefined,
  stored: Current | undefined,
  type: string,
): bigint | null {
  const source = pending
    ? (pending.op === "delete" ? null : { kind: pending.kind, value: pending.bytes })
    : stored ?? null;
  if (!source) return null;
  if (source.kind !== ValueKind.U64) {
    throw new TypeError(`Failed to perform '${type}' mutation on a non-U64 value in the database`);
  }
  const bytes = source.value;
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
}
