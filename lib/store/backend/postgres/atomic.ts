/**
 * Atomic operations on PostgreSQL, with Deno KV's semantics.
 *
 * The operation is encoded and checked against Deno KV's limits here, reduced to the final
 * state of each key (a set or delete, or a chain of counters on the stored value), and applied
 * by one call of `kv_commit` (./commit_function.ts): locks on every key checked or written, the
 * checks, one version from the sequence, the writes and one notification, in one implicit
 * transaction. Keys given to `notify` join that notification only: they are neither locked nor
 * written. A failed check returns `{ ok: false }`; a serialization failure or deadlock runs
 * the commit again (a few times, with backoff).
 */
import { Buffer } from "node:buffer";
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
import { NOT_U64 } from "./commit_function.ts";
import { isRetryableConflict, reachable, type Sql } from "./connection.ts";
import { keyHex, versionstampOf } from "./rows.ts";
import { keyHash, notificationOf, NOTIFY_CHANNEL } from "./key_hash.ts";

/** A mutation as the caller gave it. */
type Mutation =
  | { type: "set"; key: KvKey; value: unknown; expireIn?: number }
  | { type: "delete"; key: KvKey }
  | { type: "sum" | "min" | "max"; key: KvKey; value: KvU64 };

/** How often a commit that lost a serialization conflict is run again. */
const COMMIT_ATTEMPTS = 8;

/** An atomic operation that commits to PostgreSQL. */
export class PostgresAtomicOperation implements AtomicOperation {
  readonly #sql: Sql;
  readonly #checks: AtomicCheck[] = [];
  readonly #mutations: Mutation[] = [];
  readonly #signals: KvKey[] = [];

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

  notify(key: KvKey): this {
    this.#signals.push(key);
    return this;
  }

  async commit(): Promise<KvCommitResult | KvCommitError> {
    const plan = planCommit(this.#checks, this.#mutations, this.#signals);
    for (let attempt = 1;; attempt++) {
      try {
        const version = await reachable(() => runCommit(this.#sql, plan));
        return version === null
          ? { ok: false }
          : { ok: true, versionstamp: versionstampOf(version) };
      } catch (error) {
        if ((error as { code?: unknown }).code === NOT_U64) {
          throw new TypeError((error as Error).message);
        }
        if (!isRetryableConflict(error)) throw error;
        if (attempt >= COMMIT_ATTEMPTS) throw new StoreUnavailableError(error);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
      }
    }
  }
}

/** A commit encoded, checked against the limits and reduced, ready to run (and run again). */
interface CommitPlan {
  locks: string[];
  checkKeys: string[];
  checkVersions: (string | null)[];
  sets: { hex: string; kind: number; bytes: Uint8Array; expireIn: number }[];
  deletes: string[];
  counters: { hex: string; op: CounterOp; operand: bigint }[];
  notification: string;
}

type CounterOp = "sum" | "min" | "max";

/** What a commit does to one key: a final set or delete, or counters on the stored value. */
type KeyState =
  | { op: "set"; kind: number; bytes: Uint8Array; expireIn: number }
  | { op: "delete" }
  | { op: "count"; chain: { op: CounterOp; operand: bigint }[] };

function planCommit(
  checks: AtomicCheck[],
  mutations: Mutation[],
  signals: KvKey[],
): CommitPlan {
  let checkKeyBytes = 0;
  let mutationKeyBytes = 0;
  let valueBytes = 0;
  const hashes = new Map<string, { lock: bigint; notify: string }>();
  const hexOf = (key: KvKey, bytes: (n: number) => void) => {
    const encoded = encodeKey(key);
    checkWriteKey(encoded);
    bytes(encoded.length);
    const hex = keyHex(encoded);
    if (!hashes.has(hex)) hashes.set(hex, keyHash(encoded));
    return hex;
  };
  const checkKeys = checks.map((check) => hexOf(check.key, (n) => checkKeyBytes += n));
  const states = new Map<string, KeyState>();
  for (const mutation of mutations) {
    const hex = hexOf(mutation.key, (n) => mutationKeyBytes += n);
    if (mutation.type === "delete") {
      states.set(hex, { op: "delete" });
      continue;
    }
    if (mutation.type === "set") checkExpireIn(mutation.expireIn);
    const encoded = encodeValue(mutation.value);
    valueBytes += encoded.bytes.length;
    if (mutation.type === "set") {
      states.set(hex, { op: "set", ...encoded, expireIn: mutation.expireIn ?? -1 });
    } else {
      states.set(hex, count(states.get(hex), mutation.type, mutation.value.value));
    }
  }
  checkCommitSize({
    checks: checks.length,
    mutations: mutations.length,
    checkKeyBytes,
    mutationKeyBytes,
    valueBytes,
  });
  const plan: CommitPlan = {
    locks: [...new Set([...hashes.values()].map((hash) => hash.lock))]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map(String),
    checkKeys,
    checkVersions: checks.map((check) => versionOf(check.versionstamp)),
    sets: [],
    deletes: [],
    counters: [],
    notification: notificationOf(
      [...states.keys()].map((hex) => hashes.get(hex)!.notify),
      signals.map(signalTag),
    ),
  };
  for (const [hex, state] of states) {
    if (state.op === "set") plan.sets.push({ hex, ...state });
    else if (state.op === "delete") plan.deletes.push(hex);
    else for (const step of state.chain) plan.counters.push({ hex, ...step });
  }
  return plan;
}

/** The notification tag of a key given to `notify` (checked as a key that could be written). */
function signalTag(key: KvKey): string {
  const encoded = encodeKey(key);
  checkWriteKey(encoded);
  return keyHash(encoded).notify;
}

/** A counter applied after what the commit already did to the key. */
function count(before: KeyState | undefined, op: CounterOp, operand: bigint): KeyState {
  if (!before) return { op: "count", chain: [{ op, operand }] };
  if (before.op === "count") return { op: "count", chain: [...before.chain, { op, operand }] };
  let value = operand;
  if (before.op === "set") {
    if (before.kind !== ValueKind.U64) {
      throw new TypeError(`Failed to perform '${op}' mutation on a non-U64 value in the database`);
    }
    const current = new DataView(before.bytes.buffer, before.bytes.byteOffset, 8)
      .getBigUint64(0, true);
    value = op === "sum"
      ? (current + operand) & 0xffff_ffff_ffff_ffffn
      : op === "min"
      ? (current < operand ? current : operand)
      : (current > operand ? current : operand);
  }
  return { op: "set", kind: ValueKind.U64, bytes: u64Bytes(value), expireIn: -1 };
}

/** Runs the plan; the commit's version, or null when a check failed. */
async function runCommit(sql: Sql, plan: CommitPlan): Promise<string | null> {
  const values = Buffer.concat(plan.sets.map((set) => set.bytes));
  const offsets: number[] = [];
  let offset = 1; // substring() counts from 1
  for (const set of plan.sets) {
    offsets.push(offset);
    offset += set.bytes.length;
  }
  const [{ version }] = await sql<{ version: string | null }[]>`SELECT kv_commit(
    ${plan.locks}::bigint[],
    ${plan.checkKeys}::text[], ${plan.checkVersions}::bigint[],
    ${plan.sets.map((set) => set.hex)}::text[],
    ${plan.sets.map((set) => set.kind)}::smallint[],
    ${values}::bytea, ${offsets}::integer[],
    ${plan.sets.map((set) => set.bytes.length)}::integer[],
    ${plan.sets.map((set) => set.expireIn)}::bigint[],
    ${plan.deletes}::text[],
    ${plan.counters.map((counter) => counter.hex)}::text[],
    ${plan.counters.map((counter) => counter.op)}::text[],
    ${plan.counters.map((counter) => counter.operand.toString())}::numeric[],
    ${NOTIFY_CHANNEL}, ${plan.notification}
  ) AS version`;
  return version;
}

/** The stored version a versionstamp stands for; -1 (matching nothing) for a foreign one. */
function versionOf(versionstamp: string | null): string | null {
  if (versionstamp === null) return null;
  return /^[0-9a-f]{16}0000$/.test(versionstamp)
    ? BigInt(`0x${versionstamp.slice(0, 16)}`).toString()
    : "-1";
}
