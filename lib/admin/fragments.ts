/**
 * A group's filter fragments (spec payload rule 4): listed with their version as `ETag`,
 * replaced all at once (one KV record), `If-Match` answering 409 when stale.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { MAX_FRAGMENTS } from "../limits.ts";
import { newAuditEntry } from "../store/telemetry/audit.ts";
import { getFragments, replaceFragments } from "../store/config/fragments.ts";
import type { Fragment } from "../types.ts";
import { actorOf, requireGroup } from "./guards.ts";
import { Versioned } from "./versioned.ts";

/** `GET /admin/api/groups/:id/fragments`. */
export async function listGroupFragments(
  kv: Kv,
  principal: Principal,
  groupId: string,
): Promise<Versioned<{ fragments: Fragment[] }>> {
  await requireGroup(kv, principal, groupId, "read");
  const stored = await getFragments(kv, groupId);
  return new Versioned({ fragments: stored.fragments }, stored.versionstamp);
}

function requireConsistent(groupId: string, fragments: readonly Fragment[]) {
  if (fragments.length > MAX_FRAGMENTS) {
    throw new HttpError(400, `fragments: at most ${MAX_FRAGMENTS} fragments per group`);
  }
  const seen = new Set<string>();
  fragments.forEach((fragment, index) => {
    if (fragment.groupId !== groupId) {
      throw new HttpError(
        400,
        `fragments[${index}].groupId: must be "${groupId}", the group in the path`,
      );
    }
    if (seen.has(fragment.id)) {
      throw new HttpError(400, `fragments[${index}].id: duplicate fragment id "${fragment.id}"`);
    }
    seen.add(fragment.id);
  });
}

/**
 * `PUT /admin/api/groups/:id/fragments`: replaces all of the group's fragments. Answers
 * `{ ok, count }` with the new version as `ETag`.
 */
export async function replaceGroupFragments(
  kv: Kv,
  principal: Principal,
  groupId: string,
  fragments: Fragment[],
  expected: string | null | undefined,
): Promise<Versioned<{ ok: boolean; count: number }>> {
  await requireGroup(kv, principal, groupId, "edit");
  requireConsistent(groupId, fragments);
  const audit = newAuditEntry({
    actor: actorOf(principal),
    action: "fragments.replace",
    groupId,
    detail: { count: fragments.length },
  }, Date.now());
  const result = await replaceFragments(kv, groupId, fragments, expected, [audit]);
  if (result.ok) return new Versioned({ ok: true, count: result.count }, result.versionstamp);
  if (result.reason === "conflict") {
    throw new HttpError(409, "The fragments changed since they were read; reload and try again");
  }
  throw new HttpError(400, `fragments: at most ${result.limit} bytes of fragments per group`);
}
