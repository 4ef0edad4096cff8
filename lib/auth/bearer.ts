/**
 * Bearer authentication for the action API. The failures are told apart, as RFC 6750 does: no
 * `Authorization` header, or one of another scheme (`Basic …`) → 401 with a plain
 * `WWW-Authenticate: Bearer` challenge; a `Bearer` header without a well-formed token → 400
 * `invalid_request`; a token the reverse index does not know (never stored, replaced, revoked or
 * expired, or longer than any token stored) → 401 `invalid_token`; a
 * known token past its use-by time (stale: 90% of GitHub's lifetime) → 401
 * `invalid_token` as well. A stale token is never used, and the call is not
 * made with a refreshed one on its behalf: whoever holds it must sign in again.
 * `routes/api/_middleware.ts` authenticates every action API call once
 * (`identifyBearer`); handlers read the caller with `bearerUserOf(ctx)`.
 */
import type { Kv } from "../store/backend/types.ts";
import { type Context, HttpError } from "../fresh/mod.ts";
import type { State } from "../state.ts";
import { findTokenOwner } from "../store/auth/tokens.ts";

const REALM = 'Bearer realm="switchyard"';
const BEARER = /^Bearer +([\w.~+/-]+=*) *$/i;
/** The `Bearer` scheme, with or without a token after it. */
const BEARER_SCHEME = /^Bearer(?: |$)/i;
/** Longer than any GitHub token: never looked up. */
const MAX_TOKEN_LENGTH = 512;

/** The user id of the request's bearer token; throws 400/401 as described above. */
async function requireBearerUser(kv: Kv, req: Request): Promise<string> {
  const header = req.headers.get("authorization")?.trim() ?? "";
  if (header === "") {
    throw new HttpError(401, "Missing Authorization header", {
      headers: { "www-authenticate": REALM },
    });
  }
  if (!BEARER_SCHEME.test(header)) {
    throw new HttpError(401, "Authorization must be Bearer <token>", {
      headers: { "www-authenticate": REALM },
    });
  }
  const token = BEARER.exec(header)?.[1];
  if (!token) {
    throw new HttpError(400, "Malformed Authorization header: expected Bearer <token>", {
      headers: { "www-authenticate": `${REALM}, error="invalid_request"` },
    });
  }
  const challenge = { headers: { "www-authenticate": `${REALM}, error="invalid_token"` } };
  const owner = token.length > MAX_TOKEN_LENGTH ? null : await findTokenOwner(kv, token);
  if (owner === null) throw new HttpError(401, "Invalid or revoked token", challenge);
  if (!owner.fresh) {
    throw new HttpError(401, "The token has expired; sign in again for a new one", challenge);
  }
  return owner.userId;
}

/** Middleware: authenticates the bearer (as above) into `ctx.state.bearerUserId`. */
export async function identifyBearer(ctx: Context<State>): Promise<Response> {
  ctx.state.bearerUserId = await requireBearerUser(ctx.state.kv, ctx.req);
  return await ctx.next();
}

/**
 * The action API caller's user id, which the folder's middleware authenticated.
 * A route without that middleware is a programming error (an exception, answered 500).
 */
export function bearerUserOf(ctx: Context<State>): string {
  const userId = ctx.state.bearerUserId;
  if (userId === undefined) {
    throw new Error(`no middleware authenticates the bearer for ${ctx.url.pathname}`);
  }
  return userId;
}
