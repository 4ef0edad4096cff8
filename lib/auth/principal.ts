/**
 * Who is asking, and what they may do: the authorization module every admin
 * page, admin API endpoint and identity route uses. A principal comes from the
 * session cookie (or, with DEBUG_MODE, is a built-in super admin, for requests
 * addressed to a loopback name only);
 * group roles come from the groups' member lists, kept in a Map so that no
 * group id (`constructor`, `tostring`…) can hit an inherited object property.
 * The `_middleware.ts` of the folders that need it resolves the principal once
 * per request into `ctx.state.principal` (`identifyPrincipal`); handlers read
 * it with `principalOf(ctx)`.
 *
 * - super admin (ADMIN_USER_IDS: a numeric id, or `login:<name>`): every group;
 * - `owner`: their groups' members, invites, webhook secret, rename, binding;
 * - `admin`: their groups' routes and fragments;
 * - `viewer`: reads their groups.
 */
import type { Kv } from "../store/backend/types.ts";
import { type Config, isLoopbackName } from "../config.ts";
import { randomToken } from "../crypto.ts";
import { type Context, HttpError } from "../fresh/mod.ts";
import type { State } from "../state.ts";
import { listGroups } from "../store/config/groups.ts";
import { getSession } from "../store/auth/sessions.ts";
import type { Group, Principal, Role } from "../types.ts";
import { debugPersonId, debugPersonOf } from "./debug_person.ts";
import { sessionIdOf } from "./session_cookie.ts";

/** The principal's shape is in `lib/types.ts` (so `lib/state.ts` can hold one); re-exported here. */
export type { Principal };

const DEBUG_CSRF_TOKEN = randomToken(32);

/**
 * Whether ADMIN_USER_IDS names the user: by numeric id, or by login (without
 * case) only where it was written `login:<name>`.
 */
function isSuperAdmin(config: Config, user: { userId: string; login: string }): boolean {
  return config.adminUsers.ids.has(user.userId) ||
    config.adminUsers.logins.has(user.login.toLowerCase());
}

/** The user's role in every group they are a member of. */
function rolesIn(groups: readonly Group[], userId: string): Map<string, Role> {
  const roles = new Map<string, Role>();
  for (const group of groups) {
    const member = group.members.find((m) => m.userId === userId);
    if (member) roles.set(group.id, member.role);
  }
  return roles;
}

/** Builds the principal for a person from the current groups. */
export async function principalFor(
  kv: Kv,
  config: Config,
  user: { userId: string; login: string },
  session: { csrfToken: string; sessionId: string | null },
): Promise<Principal> {
  return {
    userId: user.userId,
    login: user.login,
    superAdmin: isSuperAdmin(config, user),
    roles: rolesIn(await listGroups(kv), user.userId),
    csrfToken: session.csrfToken,
    sessionId: session.sessionId,
    debug: false,
  };
}

function debugPrincipal(): Principal {
  return {
    userId: "debug",
    login: "debug",
    superAdmin: true,
    roles: new Map(),
    csrfToken: DEBUG_CSRF_TOKEN,
    sessionId: null,
    debug: true,
  };
}

function hostNameOf(authority: string): string | null {
  try {
    return new URL(`http://${authority}`).hostname;
  } catch {
    return null;
  }
}

/**
 * Refuses (421) a request not addressed to a loopback name (localhost,
 * 127.0.0.1 or [::1], any port): the DEBUG_MODE principal must not be handed
 * to a LAN peer or to a page whose own domain was rebound to this machine.
 * Both the request URL's host and a `Host` header, when present, must pass.
 */
function requireLoopbackHost(req: Request): void {
  const header = req.headers.get("host");
  const names = [new URL(req.url).hostname, ...(header === null ? [] : [hostNameOf(header)])];
  if (names.every((name) => name !== null && isLoopbackName(name))) return;
  throw new HttpError(
    421,
    "DEBUG_MODE answers only requests addressed to localhost, 127.0.0.1 or [::1]",
  );
}

/**
 * The request's principal, or null when nobody is signed in: the DEBUG_MODE
 * principal (for loopback addresses only, 421 otherwise; the person the browser
 * chose to act as, see `debug_person.ts`), else the person of the session
 * cookie's live session.
 */
async function resolvePrincipal(
  deps: { kv: Kv; config: Config },
  req: Request,
): Promise<Principal | null> {
  const { kv, config } = deps;
  if (config.debugMode) {
    requireLoopbackHost(req);
    const login = debugPersonOf(req);
    if (login === null) return debugPrincipal();
    const person = { userId: debugPersonId(login), login };
    const session = { csrfToken: DEBUG_CSRF_TOKEN, sessionId: null };
    return { ...await principalFor(kv, config, person, session), debug: true };
  }
  const sessionId = sessionIdOf(req);
  if (!sessionId) return null;
  const session = await getSession(kv, sessionId);
  if (!session) return null;
  return await principalFor(kv, config, session, { csrfToken: session.csrfToken, sessionId });
}

/** Middleware: resolves the request's principal once into `ctx.state.principal`. */
export async function identifyPrincipal(ctx: Context<State>): Promise<Response> {
  ctx.state.principal = await resolvePrincipal(ctx.state, ctx.req);
  return await ctx.next();
}

/**
 * The signed-in principal the folder's middleware resolved; 401 when nobody
 * is signed in. A route whose middleware does not resolve principals is a
 * programming error (an exception, answered 500).
 */
export function principalOf(ctx: Context<State>): Principal {
  const principal = ctx.state.principal;
  if (principal === undefined) {
    throw new Error(`no middleware resolves the principal for ${ctx.url.pathname}`);
  }
  if (principal === null) throw new HttpError(401, "Sign-in required");
  return principal;
}

/** Whether the person may use the console at all: a super admin or a member of some group. */
export function hasConsoleAccess(principal: Principal): boolean {
  return principal.superAdmin || principal.roles.size > 0;
}

/** Whether a person (not yet signed in) would have console access. */
export async function userHasConsoleAccess(
  kv: Kv,
  config: Config,
  user: { userId: string; login: string },
): Promise<boolean> {
  if (isSuperAdmin(config, user)) return true;
  return rolesIn(await listGroups(kv), user.userId).size > 0;
}

/** Whether the person may read the group (any role). */
export function canReadGroup(principal: Principal, groupId: string): boolean {
  return principal.superAdmin || principal.roles.has(groupId);
}

/** Whether the person may change the group's routes and fragments (owner or admin). */
export function canEditRoutes(principal: Principal, groupId: string): boolean {
  const role = principal.roles.get(groupId);
  return principal.superAdmin || role === "owner" || role === "admin";
}

/** Whether the person has owner rights over the group (its owner, or a super admin). */
export function isOwner(principal: Principal, groupId: string): boolean {
  return principal.superAdmin || principal.roles.get(groupId) === "owner";
}

/** The groups the person may read, in the given order. */
export function readableGroups<G extends { id: string }>(
  principal: Principal,
  groups: readonly G[],
): G[] {
  return groups.filter((group) => canReadGroup(principal, group.id));
}
