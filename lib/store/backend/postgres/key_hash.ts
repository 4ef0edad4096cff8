/**
 * Short hashes of encoded keys: a 64-bit advisory lock id per key (commits lock the keys they
 * check and write), and an 8-hex-digit tag per key that a commit's notification carries so
 * watchers know which keys changed.
 */

/** The channel every commit notifies on. */
export const NOTIFY_CHANNEL = "switchyard_kv";

/** Notification payloads stay below PostgreSQL's 8000-byte limit; past this, "*" is sent. */
const MAX_PAYLOAD = 7000;

/** Payload meaning "any key may have changed". */
export const ANY_KEY = "*";

/** Marks a tag of a key signalled by `notify` (its watchers emit though it did not change). */
export const SIGNAL_MARK = "!";

/** The lock id and notification tag of an encoded key. */
export function keyHash(key: Uint8Array): { lock: bigint; notify: string } {
  const high = fnv1a(key, 0x811c9dc5);
  const low = fnv1a(key, 0x2f2a7a9b);
  return {
    lock: BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low)),
    notify: high.toString(16).padStart(8, "0"),
  };
}

/**
 * The payload of a commit that wrote keys with the tags `written` and signalled keys with the
 * tags `signalled`: the tags joined by commas, signalled ones marked with {@link SIGNAL_MARK};
 * past {@link MAX_PAYLOAD} the written tags give way to {@link ANY_KEY} (signals are kept).
 */
export function notificationOf(written: string[], signalled: string[] = []): string {
  const signals = [...new Set(signalled)].map((tag) => SIGNAL_MARK + tag);
  const payload = [...new Set(written), ...signals].join(",");
  return payload.length > MAX_PAYLOAD ? [ANY_KEY, ...signals].join(",") : payload;
}

function fnv1a(bytes: Uint8Array, seed: number): number {
  let hash = seed;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
