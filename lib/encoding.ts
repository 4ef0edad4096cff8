/** Byte and text encodings built on the platform's Uint8Array helpers. */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/** Encodes a string as UTF-8 bytes. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Decodes UTF-8 bytes to a string. */
export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** Decodes UTF-8 bytes to a string; null when they are not valid UTF-8. */
export function fromStrictUtf8(bytes: Uint8Array): string | null {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}

/** Lower-case hexadecimal of the bytes. */
export function toHex(bytes: Uint8Array): string {
  return bytes.toHex();
}

/** Bytes of a hexadecimal string, or null when it is not valid hex. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.fromHex(hex);
  } catch {
    return null;
  }
}

/** Standard base64 (with padding) of the bytes. */
export function toBase64(bytes: Uint8Array): string {
  return bytes.toBase64();
}

/** Bytes of a base64 or base64url string, or null when it is not valid. */
export function fromBase64(
  text: string,
  alphabet: "base64" | "base64url" = "base64",
): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.fromBase64(text, { alphabet });
  } catch {
    return null;
  }
}

/** Joins byte strings into one. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
