/**
 * A list selector as a byte range of encoded keys: lower bound inclusive, upper bound
 * exclusive, as Deno KV defines lists (a prefix never includes the prefix's own entry; `start`
 * is inclusive, `end` exclusive). A cursor is the base64 of the last key read without the
 * selector's prefix (base64url), as Deno KV's is.
 */
import { concatBytes, fromBase64 } from "../../encoding.ts";
import { encodeKey, encodePrefix, startsWith } from "./key_codec.ts";
import { checkReadKey } from "./limits.ts";
import type { KvListSelector } from "./types.ts";

/** The keys a list reads, and the prefix its cursors are relative to. */
export interface KeyRange {
  lower: Uint8Array;
  upper: Uint8Array;
  cursorPrefix: Uint8Array;
}

const AFTER = Uint8Array.of(0x00);
const END = Uint8Array.of(0xff);

/** The range of a selector, narrowed by a cursor (forward: after it; reverse: before it). */
export function rangeOf(selector: KvListSelector, cursor?: string, reverse = false): KeyRange {
  const prefix = "prefix" in selector ? encodePrefix(selector.prefix) : undefined;
  const start = "start" in selector ? encodeKey(selector.start) : undefined;
  const end = "end" in selector ? encodeKey(selector.end) : undefined;
  for (const key of [prefix, start, end]) if (key) checkReadKey(key);
  if (prefix && start && !startsWith(start, prefix)) {
    throw new TypeError("Start key is not in the keyspace defined by prefix");
  }
  if (prefix && end && !startsWith(end, prefix)) {
    throw new TypeError("End key is not in the keyspace defined by prefix");
  }
  const inside = prefix ? concatBytes(prefix, AFTER) : undefined;
  let lower = start && start.length > (prefix?.length ?? 0) ? start : inside ?? start!;
  let upper = end ?? concatBytes(prefix!, END);
  const cursorPrefix = prefix ?? new Uint8Array();
  if (cursor) {
    const last = concatBytes(cursorPrefix, decodeCursor(cursor));
    if (reverse) upper = last;
    else lower = concatBytes(last, AFTER);
  }
  return { lower, upper, cursorPrefix };
}

/** The cursor that resumes after `key`. */
export function cursorAfter(range: KeyRange, key: Uint8Array): string {
  return key.subarray(range.cursorPrefix.length).toBase64({ alphabet: "base64url" });
}

function decodeCursor(cursor: string): Uint8Array {
  const bytes = fromBase64(cursor, "base64url");
  if (!bytes) throw new TypeError("invalid cursor");
  return bytes;
}
