/**
 * Binds a sign-in to the browser that started it (login CSRF): starting a
 * browser or install sign-in sets a short-lived cookie holding a random value,
 * the OAuth state records the value's sha256, and the callback accepts the
 * state only from a browser that sends the same cookie. A victim who opens an
 * attacker's callback link has no such cookie (or another value), so they are
 * never signed in as the attacker.
 *
 * The cookie is `__Host-switchyard_oauth` (Secure, Path=/, no Domain) when
 * BASE_URL is https. Browsers keep `__Host-` cookies only over https, so on a
 * plain-http BASE_URL (a laptop on http://localhost) it is `switchyard_oauth`
 * without Secure. HttpOnly, SameSite=Lax (GitHub's redirect back is a
 * top-level navigation, which Lax cookies accompany), 10 minutes like the
 * state. A browser that already holds a valid value keeps it, so sign-ins
 * started in two tabs both complete.
 */
import { parse, serialize } from "hono/utils/cookie";
import type { Config } from "../config.ts";
import { randomToken, sha256Hex } from "../crypto.ts";
import { OAUTH_STATE_LIFETIME_MS } from "../store/auth/oauth_states.ts";

const SECURE_NAME = "__Host-switchyard_oauth";
const PLAIN_NAME = "switchyard_oauth";
const VALUE_FORMAT = /^[\w-]{43}$/;

function isHttps(config: Config): boolean {
  return new URL(config.baseUrl).protocol === "https:";
}

/** The binding cookie's name for this instance (see the module comment). */
function browserBindingName(config: Config): string {
  return isHttps(config) ? SECURE_NAME : PLAIN_NAME;
}

/** The binding value the request's browser holds, or null. */
export function browserBindingOf(req: Request, config: Config): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  const name = browserBindingName(config);
  const value = parse(header, name)[name];
  return value && VALUE_FORMAT.test(value) ? value : null;
}

/** The digest the OAuth state stores for a binding value. */
export function browserBindingHash(value: string): Promise<string> {
  return sha256Hex(value);
}

/**
 * The binding for a sign-in the request starts: the browser's current value,
 * or a new one; and the `Set-Cookie` value that (re)sets it for 10 minutes.
 */
export function startBrowserBinding(
  req: Request,
  config: Config,
): { value: string; setCookie: string } {
  const value = browserBindingOf(req, config) ?? randomToken(32);
  const setCookie = serialize(browserBindingName(config), value, {
    httpOnly: true,
    sameSite: "Lax",
    secure: isHttps(config),
    path: "/",
    maxAge: OAUTH_STATE_LIFETIME_MS / 1000,
  });
  return { value, setCookie };
}
