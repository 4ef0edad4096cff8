/**
 * The admin session cookie: `switchyard_session`, HttpOnly,
 * SameSite=Lax, Secure when BASE_URL is https, Path=/, 7 days.
 */
import { parse, serialize } from "hono/utils/cookie";
import type { Config } from "../config.ts";
import { SESSION_LIFETIME_MS } from "../store/auth/sessions.ts";

/** The cookie's name. */
const SESSION_COOKIE = "switchyard_session";

function attributes(config: Config, maxAge: number) {
  return {
    httpOnly: true,
    sameSite: "Lax",
    secure: new URL(config.baseUrl).protocol === "https:",
    path: "/",
    maxAge,
  } as const;
}

/** The `Set-Cookie` value that stores a session id. */
export function sessionCookie(config: Config, sessionId: string): string {
  return serialize(SESSION_COOKIE, sessionId, attributes(config, SESSION_LIFETIME_MS / 1000));
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(config: Config): string {
  return serialize(SESSION_COOKIE, "", { ...attributes(config, 0), expires: new Date(0) });
}

/** The session id the request carries, or null. */
export function sessionIdOf(req: Request): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  const value = parse(header, SESSION_COOKIE)[SESSION_COOKIE];
  return value && /^[\w-]{16,128}$/.test(value) ? value : null;
}
