/** `GET /admin/api/me`: who is signed in, and what they may see. */
import type { Kv } from "../store/backend/types.ts";
import { type Principal, readableGroups } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import { listGroups } from "../store/config/groups.ts";
import { effectiveRole } from "./guards.ts";

/** The caller, whether they are a super admin, their groups with their roles, and debug mode. */
export async function describeMe(kv: Kv, config: Config, principal: Principal) {
  const groups = readableGroups(principal, await listGroups(kv));
  return {
    user: { userId: principal.userId, login: principal.login },
    superAdmin: principal.superAdmin,
    groups: groups.map((group) => ({
      id: group.id,
      name: group.name,
      role: effectiveRole(principal, group.id),
    })),
    debugMode: config.debugMode,
  };
}
