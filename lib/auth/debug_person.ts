/**
 * DEBUG_MODE's second person: a browser can act as another person (a GitHub-like login, not a
 * super admin unless ADMIN_USER_IDS names it, with the roles the groups give them) to try
 * invites and roles on one machine, for example in a private window beside the built-in super
 * admin. The choice is a cookie set by the same-origin form of `/admin/debug-person`; it is read
 * only while DEBUG_MODE is on, which serves loopback addresses only.
 */
import { parse, serialize } from "hono/utils/cookie";

/** The cookie that names the person a DEBUG_MODE browser acts as. */
export const DEBUG_PERSON_COOKIE = "switchyard_debug_person";

/** A login as GitHub spells one: letters, digits and inner hyphens, at most 39 characters. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/;

/** Whether `value` is a login a debug person may take. */
export function isDebugLogin(value: unknown): value is string {
  return typeof value === "string" && LOGIN.test(value) && value.toLowerCase() !== "debug";
}

/** The person the request's browser acts as, or null (the built-in super admin). */
export function debugPersonOf(req: Request): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  const value = parse(header, DEBUG_PERSON_COOKIE)[DEBUG_PERSON_COOKIE];
  return isDebugLogin(value) ? value : null;
}

/** The user id of a debug person (never a numeric GitHub id). */
export function debugPersonId(login: string): string {
  return `debug-${login.toLowerCase()}`;
}

/** The `Set-Cookie` value that makes the browser act as `login`, or (null) as the super admin. */
export function debugPersonCookie(login: string | null): string {
  const attributes = { httpOnly: true, sameSite: "Strict", path: "/" } as const;
  return login === null
    ? serialize(DEBUG_PERSON_COOKIE, "", { ...attributes, maxAge: 0, expires: new Date(0) })
    : serialize(DEBUG_PERSON_COOKIE, login, attributes);
}
