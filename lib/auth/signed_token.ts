/**
 * Signed tokens: what the server hands out and must recognise later without storing it (OAuth
 * states, chat link page and confirmation tokens). A token is `<body>.<mac>`: the body is the
 * base64url JSON `{ p: purpose, e: expiry (Unix ms), d: data }`, the mac its HMAC-SHA256 under
 * a key derived from the instance secret for signed tokens (`lib/store/auth/instance_secret.ts`),
 * base64url. A token of one purpose
 * is never accepted for another. Verifying never writes: without a key nothing was signed yet.
 */
import type { Kv } from "../store/backend/types.ts";
import { hmacSha256, timingSafeEqual } from "../crypto.ts";
import { fromBase64, fromUtf8, utf8 } from "../encoding.ts";
import { checkingKey, signingKey } from "../store/auth/instance_secret.ts";

const KEY_PURPOSE = "signed token";

/** What a token is for. */
type TokenPurpose = "oauth_state" | "link_page" | "link_confirm";

/** A signed token's shape: a base64url body and a 43-character base64url MAC. */
const SIGNED_TOKEN_FORMAT = /^[\w-]{1,4000}\.[\w-]{43}$/;

/** Why a token was not accepted. */
type TokenRefusal = "invalid" | "expired";

interface Body {
  p: TokenPurpose;
  e: number;
  d: unknown;
}

function base64url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

/** Signs `data` for `purpose`, valid until `expiresAt`. */
export async function signToken(
  kv: Kv,
  purpose: TokenPurpose,
  data: unknown,
  expiresAt: number,
): Promise<string> {
  const body = base64url(utf8(JSON.stringify({ p: purpose, e: expiresAt, d: data } as Body)));
  const mac = await hmacSha256(await signingKey(kv, KEY_PURPOSE), utf8(body));
  return `${body}.${base64url(mac)}`;
}

/**
 * The data of a token signed for `purpose`: `invalid` when it is malformed, forged or for
 * another purpose, `expired` once `now` has reached its expiry.
 */
export async function verifyToken(
  kv: Kv,
  purpose: TokenPurpose,
  token: string | null | undefined,
  now: number = Date.now(),
): Promise<{ data: unknown; expiresAt: number } | { refused: TokenRefusal }> {
  if (!token || !SIGNED_TOKEN_FORMAT.test(token)) return { refused: "invalid" };
  const [body, mac] = token.split(".");
  const secret = await checkingKey(kv, KEY_PURPOSE);
  const given = fromBase64(mac, "base64url");
  if (!secret || !given) return { refused: "invalid" };
  if (!timingSafeEqual(given, await hmacSha256(secret, utf8(body)))) return { refused: "invalid" };
  const bytes = fromBase64(body, "base64url");
  let parsed: Partial<Body>;
  try {
    parsed = JSON.parse(fromUtf8(bytes ?? new Uint8Array()));
  } catch {
    return { refused: "invalid" };
  }
  if (parsed?.p !== purpose || typeof parsed.e !== "number") return { refused: "invalid" };
  if (now >= parsed.e) return { refused: "expired" };
  return { data: parsed.d, expiresAt: parsed.e };
}
