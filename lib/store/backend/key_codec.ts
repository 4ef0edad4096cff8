/**
 * An order-preserving binary encoding of KV keys: comparing two encoded keys byte by byte
 * (as PostgreSQL compares `bytea`) gives Deno KV's key order.
 *
 * Each part is a type tag and a self-delimiting body, so a key's encoding is a prefix of the
 * encodings of the keys under it:
 * - `Uint8Array` 0x01 and string 0x02 (UTF-8): the bytes with 0x00 written as 0x00 0xFF, ended
 *   by 0x00 (the same bytes Deno KV writes, so sizes and limits match);
 * - bigint 0x10: a sign-and-length byte (0x80 for zero, 0x80 + n for n magnitude bytes, 0x80 - n
 *   for a negative one) and the big-endian magnitude (inverted when negative);
 * - number 0x21: the IEEE-754 bits big-endian, all inverted when negative, else the sign bit set
 *   (so -Infinity < -0 < 0 < Infinity < NaN, as in Deno KV);
 * - false 0x26, true 0x27.
 * The type order is therefore bytes < string < bigint < number < boolean, Deno KV's own.
 */
import type { KvKey, KvKeyPart } from "./types.ts";

const BYTES = 0x01;
const STRING = 0x02;
const BIGINT = 0x10;
const NUMBER = 0x21;
const FALSE = 0x26;
const TRUE = 0x27;

/** The largest magnitude of a bigint key part, in bytes. */
const MAX_BIGINT_BYTES = 127;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Encodes a key; throws a TypeError for an empty key or a part of an unsupported type. */
export function encodeKey(key: KvKey): Uint8Array {
  if (!Array.isArray(key) || key.length === 0) throw new TypeError("key cannot be empty");
  return encodePrefix(key);
}

/** Encodes a list prefix, which (unlike a key) may be empty: the prefix of every key. */
export function encodePrefix(key: KvKey): Uint8Array {
  if (!Array.isArray(key)) throw new TypeError("key must be an array");
  const out: number[] = [];
  for (const part of key) encodePart(part, out);
  return Uint8Array.from(out);
}

function encodePart(part: KvKeyPart, out: number[]): void {
  if (part instanceof Uint8Array) return escaped(BYTES, part, out);
  switch (typeof part) {
    case "string":
      return escaped(STRING, encoder.encode(part), out);
    case "bigint":
      return encodeBigint(part, out);
    case "number":
      return encodeNumber(part, out);
    case "boolean":
      out.push(part ? TRUE : FALSE);
      return;
  }
  throw new TypeError("expected string, number, bigint, ArrayBufferView, boolean");
}

function escaped(tag: number, bytes: Uint8Array, out: number[]): void {
  out.push(tag);
  for (const byte of bytes) {
    out.push(byte);
    if (byte === 0) out.push(0xff);
  }
  out.push(0);
}

function encodeBigint(value: bigint, out: number[]): void {
  out.push(BIGINT);
  if (value === 0n) {
    out.push(0x80);
    return;
  }
  const negative = value < 0n;
  let magnitude = negative ? -value : value;
  const bytes: number[] = [];
  while (magnitude > 0n) {
    bytes.unshift(Number(magnitude & 0xffn));
    magnitude >>= 8n;
  }
  if (bytes.length > MAX_BIGINT_BYTES) throw new TypeError("bigint key part too large");
  out.push(negative ? 0x80 - bytes.length : 0x80 + bytes.length);
  for (const byte of bytes) out.push(negative ? 0xff - byte : byte);
}

function encodeNumber(value: number, out: number[]): void {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, Number.isNaN(value) ? NaN : value);
  if (bytes[0] & 0x80) {
    for (let i = 0; i < 8; i++) bytes[i] ^= 0xff;
  } else {
    bytes[0] ^= 0x80;
  }
  out.push(NUMBER, ...bytes);
}

/** Decodes a key written by {@link encodeKey}. */
export function decodeKey(bytes: Uint8Array): KvKey {
  const key: KvKeyPart[] = [];
  let at = 0;
  while (at < bytes.length) {
    const tag = bytes[at++];
    if (tag === BYTES || tag === STRING) {
      const body: number[] = [];
      while (bytes[at] !== 0 || bytes[at + 1] === 0xff) {
        if (at >= bytes.length) throw new TypeError("malformed key");
        body.push(bytes[at]);
        at += bytes[at] === 0 ? 2 : 1;
      }
      at++;
      key.push(tag === BYTES ? Uint8Array.from(body) : decoder.decode(Uint8Array.from(body)));
    } else if (tag === BIGINT) {
      const head = bytes[at++];
      const negative = head < 0x80;
      const length = negative ? 0x80 - head : head - 0x80;
      let magnitude = 0n;
      for (let i = 0; i < length; i++) {
        magnitude = (magnitude << 8n) | BigInt(negative ? 0xff - bytes[at++] : bytes[at++]);
      }
      key.push(negative ? -magnitude : magnitude);
    } else if (tag === NUMBER) {
      const body = Uint8Array.from(bytes.subarray(at, at + 8));
      at += 8;
      if (body[0] & 0x80) body[0] ^= 0x80;
      else for (let i = 0; i < 8; i++) body[i] ^= 0xff;
      key.push(new DataView(body.buffer).getFloat64(0));
    } else if (tag === FALSE || tag === TRUE) {
      key.push(tag === TRUE);
    } else {
      throw new TypeError("malformed key");
    }
  }
  return key;
}

/** Whether `bytes` starts with `prefix`. */
export function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}
