/**
 * Deno KV's own limits, enforced by the PostgreSQL backend with the same messages (TypeError),
 * so a store that works on one backend works on the other. Sizes are measured on the encoded
 * key (./key_codec.ts, the same bytes as Deno KV's for text and bytes) and the encoded value
 * (./value_codec.ts).
 */

/** Largest key that can be written, in encoded bytes. */
const MAX_WRITE_KEY_BYTES = 2048;
/** Largest key that can be read (one byte more, so a list can start just past a largest key). */
const MAX_READ_KEY_BYTES = 2049;
/** Largest value, in encoded bytes. */
const MAX_VALUE_BYTES = 65536;
/** Most checks in one atomic operation. */
const MAX_CHECKS = 100;
/** Most mutations in one atomic operation. */
export const MAX_MUTATIONS = 1000;
/** Most bytes of mutation keys in one atomic operation. */
export const MAX_TOTAL_KEY_BYTES = 80 * 1024;
/** Most bytes of one atomic operation: check keys, mutation keys (twice) and values. */
export const MAX_TOTAL_MUTATION_BYTES = 800 * 1024;
/** Most keys read by one getMany or watched by one watch. */
const MAX_KEYS_PER_READ = 10;
/** Most entries one list batch reads. */
export const MAX_LIST_BATCH = 1000;

/** Throws unless a key to be written is small enough. */
export function checkWriteKey(encoded: Uint8Array): void {
  if (encoded.length > MAX_WRITE_KEY_BYTES) {
    throw new TypeError(`Key too large for write (max ${MAX_WRITE_KEY_BYTES} bytes)`);
  }
}

/** Throws unless a key to be read is small enough. */
export function checkReadKey(encoded: Uint8Array): void {
  if (encoded.length > MAX_READ_KEY_BYTES) {
    throw new TypeError(`Key too large for read (max ${MAX_READ_KEY_BYTES} bytes)`);
  }
}

/** Throws unless an encoded value is small enough. */
export function checkValue(encoded: Uint8Array): void {
  if (encoded.length > MAX_VALUE_BYTES) {
    throw new TypeError(`Value too large (max ${MAX_VALUE_BYTES} bytes)`);
  }
}

/** Throws unless a getMany (`"ranges"`, in Deno KV's words) or a watch (`"keys"`) is small enough. */
export function checkKeyCount(count: number, what: "ranges" | "keys"): void {
  if (count > MAX_KEYS_PER_READ) {
    throw new TypeError(`Too many ${what} (max ${MAX_KEYS_PER_READ})`);
  }
}

/** Throws unless `expireIn` is absent or a non-negative integer (ms). */
export function checkExpireIn(expireIn: number | undefined): void {
  if (expireIn === undefined) return;
  if (!Number.isSafeInteger(expireIn) || expireIn < 0) {
    throw new TypeError(`expireIn must be a non-negative integer: received ${expireIn}`);
  }
}

/** What one atomic operation adds up to, checked against the limits before it is sent. */
interface CommitSize {
  checks: number;
  mutations: number;
  checkKeyBytes: number;
  mutationKeyBytes: number;
  valueBytes: number;
}

/** Throws unless an atomic operation of this size is allowed. */
export function checkCommitSize(size: CommitSize): void {
  if (size.checks > MAX_CHECKS) throw new TypeError(`Too many checks (max ${MAX_CHECKS})`);
  if (size.mutations > MAX_MUTATIONS) {
    throw new TypeError(`Too many mutations (max ${MAX_MUTATIONS})`);
  }
  if (size.mutationKeyBytes > MAX_TOTAL_KEY_BYTES) {
    throw new TypeError(`Total key size too large (max ${MAX_TOTAL_KEY_BYTES} bytes)`);
  }
  const total = size.checkKeyBytes + 2 * size.mutationKeyBytes + size.valueBytes;
  if (total > MAX_TOTAL_MUTATION_BYTES) {
    throw new TypeError(`Total mutation size too large (max ${MAX_TOTAL_MUTATION_BYTES} bytes)`);
  }
}
