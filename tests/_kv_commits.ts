/**
 * `Kv` wrappers for tests: one records every atomic commit made through it (how many checks it
 * held and which keys it wrote, so a test can assert what went together in one commit and that
 * each commit stays within the store's per-commit limits), one runs a test's step before each
 * commit (to land another write first, or to make the commit fail), one counts the reads made
 * through it (all, or those of one key family), and records the keys they named.
 */
import type { AtomicOperation, Kv, KvKey } from "../lib/store/backend/types.ts";

/** One commit as it was made. */
export interface RecordedCommit {
  /** Checks the commit held. */
  checks: number;
  /** Keys it set, deleted or changed by `sum`/`min`/`max`, in call order. */
  written: KvKey[];
}

const WRITES = new Set(["set", "delete", "sum", "min", "max"]);

/** `kv` with each commit made through it recorded in `commits`. */
export function commitRecordingKv(kv: Kv): { kv: Kv; commits: RecordedCommit[] } {
  const commits: RecordedCommit[] = [];
  const wrapped = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "atomic") return typeof value === "function" ? value.bind(target) : value;
      return () => {
        const op = target.atomic();
        const commit: RecordedCommit = { checks: 0, written: [] };
        const recorded: AtomicOperation = new Proxy(op, {
          get(opTarget, name) {
            const method = Reflect.get(opTarget, name, opTarget);
            if (typeof method !== "function") return method;
            return (...args: unknown[]) => {
              if (name === "check") commit.checks += args.length;
              if (typeof name === "string" && WRITES.has(name)) {
                commit.written.push(args[0] as KvKey);
              }
              if (name === "commit") commits.push({ ...commit, written: [...commit.written] });
              const result = method.apply(opTarget, args);
              return result === opTarget ? recorded : result;
            };
          },
        });
        return recorded;
      };
    },
  });
  return { kv: wrapped as Kv, commits };
}

/**
 * `kv` with `before` run ahead of each commit made through it, given the keys the commit writes
 * (as in {@link RecordedCommit}); when `before` answers `false`, the commit is not made and
 * answers `{ ok: false }`, as if another write had come first.
 */
export function commitInterceptingKv(
  kv: Kv,
  before: (written: readonly KvKey[]) => Promise<boolean | void>,
): Kv {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "atomic") return typeof value === "function" ? value.bind(target) : value;
      return () => {
        const op = target.atomic();
        const written: KvKey[] = [];
        const intercepted: AtomicOperation = new Proxy(op, {
          get(opTarget, name) {
            const method = Reflect.get(opTarget, name, opTarget);
            if (typeof method !== "function") return method;
            if (name === "commit") {
              return async () =>
                await before(written) === false ? { ok: false } : await opTarget.commit();
            }
            return (...args: unknown[]) => {
              if (typeof name === "string" && WRITES.has(name)) written.push(args[0] as KvKey);
              const result = method.apply(opTarget, args);
              return result === opTarget ? intercepted : result;
            };
          },
        });
        return intercepted;
      };
    },
  }) as Kv;
}

/** Whether `key` is among `keys` (compared part by part). */
export function holdsKey(keys: readonly KvKey[], key: KvKey): boolean {
  return keys.some((candidate) =>
    candidate.length === key.length && candidate.every((part, index) => part === key[index])
  );
}

const READS = new Set(["get", "getMany", "list"]);

/** What {@link readCountingKv} answers: the wrapped store and what was read through it. */
interface ReadCountingKv {
  kv: Kv;
  /** Reads made, of one method or of all. */
  reads: (method?: string) => number;
  /** The keys read one by one (`get`) or together (`getMany`), in call order. */
  keysRead: KvKey[];
}

/** The first key a read names: `get`'s key, `getMany`'s first, `list`'s prefix or start. */
function keyRead(method: string, args: unknown[]): KvKey | undefined {
  if (method === "get") return args[0] as KvKey;
  if (method === "getMany") return (args[0] as KvKey[])[0];
  const selector = args[0] as { prefix?: KvKey; start?: KvKey };
  return selector.prefix ?? selector.start;
}

/**
 * `kv` with a count of the reads made through it, per method (`get`, `getMany`, `list`); with
 * `family`, only the reads of keys that start with it (`["digests"]`: the digest records).
 */
export function readCountingKv(kv: Kv, family?: KvKey): ReadCountingKv {
  const counts = new Map<string, number>();
  const keysRead: KvKey[] = [];
  const counted = (method: string, args: unknown[]) => {
    if (family === undefined) return true;
    const key = keyRead(method, args);
    return key !== undefined && family.every((part, index) => key[index] === part);
  };
  const wrapped = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (typeof property !== "string" || !READS.has(property)) return value.bind(target);
      return (...args: unknown[]) => {
        if (counted(property, args)) counts.set(property, (counts.get(property) ?? 0) + 1);
        if (property === "get") keysRead.push(args[0] as KvKey);
        if (property === "getMany") keysRead.push(...args[0] as KvKey[]);
        return value.apply(target, args);
      };
    },
  });
  const reads = (method?: string) =>
    method === undefined
      ? [...counts.values()].reduce((sum, count) => sum + count, 0)
      : counts.get(method) ?? 0;
  return { kv: wrapped, reads, keysRead };
}
