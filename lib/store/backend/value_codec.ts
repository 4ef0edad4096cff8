/**
 * Value encoding of the PostgreSQL backend, the same three kinds Deno KV stores:
 * - a top-level `Uint8Array` as its raw bytes;
 * - a top-level `Deno.KvU64` as 8 bytes little-endian (the only value `sum`/`min`/`max` accept);
 * - anything else with the V8 serializer (`node:v8`, the structured clone format Deno KV uses):
 *   strings, numbers (NaN, ±Infinity, -0), bigint, booleans, null, undefined, Date, RegExp, Map,
 *   Set, typed arrays, errors, nested objects and arrays. Functions and symbols are refused with
 *   a TypeError, as Deno KV refuses them.
 */
import { deserialize, serialize } from "node:v8";
import { checkValue } from "./limits.ts";
import { KvU64 } from "./types.ts";

/** How a value's bytes are to be read. */
export const ValueKind = { V8: 1, Bytes: 2, U64: 3 } as const;
/** One of {@link ValueKind}. */
export type ValueKind = typeof ValueKind[keyof typeof ValueKind];

/** A value ready to be stored. */
interface EncodedValue {
  kind: ValueKind;
  bytes: Uint8Array;
}

/** Encodes a value; throws a TypeError for a value that cannot be stored or is too large. */
export function encodeValue(value: unknown): EncodedValue {
  const encoded = encodeUnchecked(value);
  checkValue(encoded.bytes);
  return encoded;
}

function encodeUnchecked(value: unknown): EncodedValue {
  if (value instanceof KvU64) return { kind: ValueKind.U64, bytes: u64Bytes(value.value) };
  if (value instanceof Uint8Array && value.constructor === Uint8Array) {
    return { kind: ValueKind.Bytes, bytes: value.slice() };
  }
  try {
    const bytes = serialize(value);
    return {
      kind: ValueKind.V8,
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
    };
  } catch (error) {
    throw new TypeError(error instanceof Error ? error.message : String(error));
  }
}

/** Decodes stored bytes of the given kind. */
export function decodeValue(kind: number, bytes: Uint8Array): unknown {
  switch (kind) {
    case ValueKind.Bytes:
      return Uint8Array.from(bytes);
    case ValueKind.U64:
      return new KvU64(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
    case ValueKind.V8:
      return deserialize(bytes);
  }
  throw new TypeError(`unknown value encoding ${kind}`);
}

/** The 8 little-endian bytes of a u64. */
export function u64Bytes(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}
