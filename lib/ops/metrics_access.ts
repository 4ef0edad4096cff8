/** Who may read `GET /metrics`: the bearer of METRICS_TOKEN, compared in constant time. */
import { utf8 } from "../encoding.ts";
import { sha256Hex, timingSafeEqual } from "../crypto.ts";

const BEARER = /^Bearer[ \t]+(\S{1,1024})[ \t]*$/i;

/**
 * True when `authorization` is `Bearer <token>` with the configured token. Both sides are
 * hashed first, so the comparison takes the same time whatever their lengths.
 */
export async function isMetricsBearer(
  authorization: string | null,
  token: string,
): Promise<boolean> {
  const given = authorization === null ? null : BEARER.exec(authorization)?.[1];
  if (!given) return false;
  const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(token)]);
  return timingSafeEqual(utf8(a), utf8(b));
}
