/**
 * A snapshot of the whole store: every key with its versionstamp. Two snapshots are equal
 * exactly when nothing was written in between (a write gives its keys new versionstamps), so
 * tests use it to show that a refused request changed nothing.
 */
import type { Kv, KvKey } from "../lib/store/backend/types.ts";

/** A key in a comparable text form (byte arrays and big integers spelled out). */
function keyText(key: KvKey): string {
  return JSON.stringify(key.map((part) => {
    if (part instanceof Uint8Array) return { bytes: [...part] };
    if (typeof part === "bigint") return { bigint: part.toString() };
    return part;
  }));
}

/** Every key of the store (as text) with its versionstamp. */
export async function snapshotStore(kv: Kv): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  for await (const entry of kv.list({ prefix: [] })) {
    snapshot.set(keyText(entry.key), entry.versionstamp);
  }
  return snapshot;
}

/** The keys added, removed or rewritten between two snapshots (empty: nothing changed). */
export function snapshotChanges(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): string[] {
  const changed: string[] = [];
  for (const [key, version] of after) {
    if (before.get(key) !== version) changed.push(key);
  }
  for (const key of before.keys()) if (!after.has(key)) changed.push(key);
  return changed;
}
