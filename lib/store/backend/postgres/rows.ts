/** Reading `kv_entries` rows back into entries, and the versionstamp of a stored version. */
import { toHex } from "../../../encoding.ts";
import { decodeKey } from "../key_codec.ts";
import type { KvEntry, KvKey } from "../types.ts";
import { decodeValue } from "../value_codec.ts";

/** A row as selected by the backend's reads. */
export interface EntryRow {
  key: Uint8Array;
  kind: number;
  value: Uint8Array;
  version: string;
}

/** The 20-hex-digit versionstamp of a version: 16 digits of the version, then a zero batch. */
export function versionstampOf(version: string | bigint): string {
  return BigInt(version).toString(16).padStart(16, "0") + "0000";
}

/** The entry of a row; `key` is the key as the caller gave it when known. */
export function entryOf<T>(row: EntryRow, key?: KvKey): KvEntry<T> {
  return {
    key: key ?? decodeKey(row.key),
    value: decodeValue(row.kind, row.value) as T,
    versionstamp: versionstampOf(row.version),
  };
}

/** The hex of an encoded key, the form keys take in parameter arrays. */
export function keyHex(key: Uint8Array): string {
  return toHex(key);
}
