/**
 * The instance's own secret: 32 random bytes made the first time something is signed and kept
 * in the store, so every instance sharing the store signs and checks with the same one. It
 * never leaves the process; what it signs uses a key derived from it for one purpose
 * ({@link signingKey}), so a signature made for one use is worthless for another. Checking a
 * signature never creates the secret: a request from outside cannot make the store write.
 */
import type { Kv, KvEntryMaybe } from "../backend/types.ts";
import { hmacSha256, randomBytes } from "../../crypto.ts";
import { utf8 } from "../../encoding.ts";
import { instanceSecretKey } from "../keys.ts";

const SECRET_BYTES = 32;
const known = new WeakMap<Kv, Uint8Array<ArrayBuffer>>();

function isSecret(value: unknown): value is Uint8Array<ArrayBuffer> {
  return value instanceof Uint8Array && value.length === SECRET_BYTES;
}

async function readSecret(kv: Kv): Promise<KvEntryMaybe<Uint8Array<ArrayBuffer>>> {
  const stored = await kv.get<Uint8Array<ArrayBuffer>>(instanceSecretKey());
  if (isSecret(stored.value)) known.set(kv, stored.value);
  return stored;
}

async function createSecret(kv: Kv): Promise<Uint8Array<ArrayBuffer>> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const stored = await readSecret(kv);
    if (isSecret(stored.value)) return stored.value;
    const created = randomBytes(SECRET_BYTES);
    const result = await kv.atomic().check(stored).set(instanceSecretKey(), created).commit();
    if (result.ok) {
      known.set(kv, created);
      return created;
    }
  }
  throw new Error("Cannot read or create the instance secret");
}

function derive(secret: Uint8Array<ArrayBuffer>, purpose: string) {
  return hmacSha256(secret, utf8(`switchyard ${purpose}`));
}

/** The HMAC key for one purpose (a fixed label such as `richheader card`); makes the secret. */
export async function signingKey(kv: Kv, purpose: string): Promise<Uint8Array<ArrayBuffer>> {
  return await derive(known.get(kv) ?? await createSecret(kv), purpose);
}

/** The same key for checking a signature; null while the store has no secret (nothing signed). */
export async function checkingKey(
  kv: Kv,
  purpose: string,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const secret = known.get(kv) ?? (await readSecret(kv)).value;
  return isSecret(secret) ? await derive(secret, purpose) : null;
}
