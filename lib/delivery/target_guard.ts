/**
 * Target ownership at send time: before each attempt the delivery worker checks that the
 * unit's group may still post into its target. The group must still be the one the unit was
 * made for: a group created with a deleted group's id has another internal id
 * (`lib/store/config/group_set.ts`), and the deleted group's units (still waiting, or
 * redelivered or replayed by hand before the sweep removed them) are never sent into the new
 * group's targets, while a renamed group's units are judged under the id it has now. The channel
 * or chat must be on the group's
 * allowlist now (a target removed since the route was saved is not sent to), and a Discord
 * thread must be a thread of the channel the target names (a thread is allowed through its
 * parent channel, so a route cannot reach a foreign thread by pairing it with an allowed
 * channel). Telegram topics always live in their chat, so the chat decides.
 *
 * The guard remembers each group's allowlist as it last read it. An allowed verdict names the
 * version it was judged on, and the version of the group set it found the group's internal id
 * in; the unit is marked as sending only while both are still those versions
 * (lib/store/delivery/units.ts), so a remembered list saves a read per message without ever
 * letting a removed target, or a deleted group, through; a refusal is always judged on a fresh
 * read. A call that
 * is not marked that way (noise control's own posts and edits) asks for a fresh read.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Pacing } from "../platform/pacing.ts";
import type { Adapters } from "./adapters.ts";
import { getAllowedTargets } from "../store/config/allowed_targets.ts";
import { readGroupEntry, readGroupSetCached } from "../store/config/group_set.ts";
import { historyIdOf, type SendLog } from "../store/delivery/send_logs.ts";
import { allowTargetsOfStoredRoutes } from "../store/config/target_upgrade.ts";
import type { TargetBasis } from "../store/delivery/units.ts";
import type { SendResult } from "../platform/send_result.ts";
import { targetRefKey } from "../target_ref.ts";

/** The error of a unit whose target its group may not post into. */
const NOT_ALLOWED = "target not allowed for group";

/** The error of a unit whose group was deleted (no group, or another group, has its id now). */
const GROUP_GONE = "group deleted; nothing was sent";

/** Whether a unit may be sent. */
type TargetVerdict =
  /** Send it, if the group's allowlist is still the version `basis` names. */
  | { kind: "allowed"; basis: TargetBasis }
  /** Never send it: the unit ends `dead` with `error`. */
  | { kind: "refused"; error: string }
  /** The platform could not tell (yet): the result goes to the retry policy. */
  | { kind: "unsure"; result: SendResult };

/** The send-time check of target ownership. */
export interface TargetGuard {
  /**
   * Allows, once per store, the targets of routes stored before target ownership existed
   * (`lib/store/config/target_upgrade.ts`); every check waits for it. Answers how many it allowed.
   */
  upgrade(): Promise<number>;
  /**
   * Whether the unit of `log` (or any post of its group to its target) may be sent now. With
   * `fresh`, the allowlist is read again even when a remembered one allows the target: for a
   * call no later check of the list's version covers ({@link throughGuard}).
   */
  check(owner: TargetOwner, fresh?: boolean): Promise<TargetVerdict>;
  /** Forgets the allowlist of `groupId` as last read (a mark checked against it failed). */
  forget(groupId: string): void;
}

/**
 * A post to judge: the group it is made for (its id, and its internal id when known) and the
 * target it goes to. Without an internal id only the group's allowlist decides.
 */
interface TargetOwner extends Pick<SendLog, "groupId" | "target"> {
  groupInternalId?: string;
}

/**
 * The owner of a unit's posts: its group's internal id is always known, as a send log written
 * before internal ids has its group id there (`historyIdOf`), which a group created again with
 * that id never gets.
 */
export function unitOwner(log: SendLog): TargetOwner {
  return { groupId: log.groupId, groupInternalId: historyIdOf(log), target: log.target };
}

/** How many groups' allowlists the guard remembers. */
const REMEMBERED_GROUPS = 256;

/**
 * A group's allowlist as read: its version and the keys (`targetRefKey`) on it, and the internal
 * id of the group that had the id then (null: none) with the version of the group set.
 */
interface ReadList {
  versionstamp: string | null;
  keys: Set<string>;
  internalId: string | null;
  groupsVersion: string | null;
}

/** Whether `list` was read for the group `owner` names (any, when the owner names none). */
function sameGroup(list: ReadList, owner: TargetOwner): boolean {
  return owner.groupInternalId === undefined || owner.groupInternalId === list.internalId;
}

/**
 * The id the group with internal id `internalId` has now (another than the one its unit was made
 * under once it was renamed), or null when no group has it any more.
 */
async function idNowOf(kv: Kv, internalId: string): Promise<string | null> {
  const { entries } = await readGroupSetCached(kv);
  return entries.find((entry) => entry.internalId === internalId)?.group.id ?? null;
}

/**
 * The guard of a delivery worker on `kv`, asking the platform which channel a thread belongs to
 * through its adapter in `adapters`, paced with `pacing`.
 */
export function createTargetGuard(kv: Kv, adapters: Adapters, pacing: Pacing): TargetGuard {
  let upgrading: Promise<number> | null = null;
  const upgrade = () =>
    upgrading ??= allowTargetsOfStoredRoutes(kv).catch((error) => {
      upgrading = null;
      throw error;
    });
  const lists = new Map<string, ReadList>();
  const read = async (groupId: string): Promise<ReadList> => {
    const [{ targets, versionstamp }, group] = await Promise.all([
      getAllowedTargets(kv, groupId),
      readGroupEntry(kv, groupId),
    ]);
    const list = {
      versionstamp,
      keys: new Set(targets.map((entry) => targetRefKey(entry.target))),
      internalId: group.entry?.internalId ?? null,
      groupsVersion: group.version,
    };
    lists.delete(groupId);
    if (lists.size >= REMEMBERED_GROUPS) lists.delete(lists.keys().next().value!);
    lists.set(groupId, list);
    return list;
  };
  return {
    upgrade,
    forget: (groupId) => lists.delete(groupId),
    async check(owner, fresh = false) {
      await upgrade();
      const key = targetRefKey(owner.target);
      const listOf = async (groupId: string) => {
        const known = fresh ? undefined : lists.get(groupId);
        return known?.keys.has(key) && sameGroup(known, owner) ? known : await read(groupId);
      };
      let groupId = owner.groupId;
      let list = await listOf(groupId);
      if (!sameGroup(list, owner)) {
        const renamed = await idNowOf(kv, owner.groupInternalId!);
        if (renamed === null) return { kind: "refused", error: GROUP_GONE };
        if (renamed === groupId) {
          // the group set changed between the two reads: judge it again later
          return {
            kind: "unsure",
            result: { kind: "retryable", error: "group changed meanwhile" },
          };
        }
        groupId = renamed;
        list = await listOf(groupId);
        if (!sameGroup(list, owner)) return { kind: "refused", error: GROUP_GONE };
      }
      if (!list.keys.has(key) || list.versionstamp === null) {
        return { kind: "refused", error: NOT_ALLOWED };
      }
      const basis = {
        groupId,
        versionstamp: list.versionstamp,
        groupsVersion: list.groupsVersion,
      };
      const target = owner.target;
      const adapter = adapters.get(target.platform);
      if (!adapter) {
        return { kind: "unsure", result: { kind: "retryable", error: "no adapter for platform" } };
      }
      const parent = await adapter.parentOf(target, pacing);
      if (parent.kind === "none" || parent.kind === "within") return { kind: "allowed", basis };
      if (parent.kind === "failed") return { kind: "unsure", result: parent.result };
      return { kind: "refused", error: `${NOT_ALLOWED}: ${parent.error}` };
    },
  };
}

/** A guarded call's outcome: the platform's answer, or the guard's refusal (no request was made). */
export type GuardedResult = SendResult | { kind: "refused"; error: string };

/** The HTTP-like status a refused call stands for in a unit's send log. */
const REFUSED_STATUS = 403;

/**
 * Makes `call` only when the guard, reading the allowlist afresh, allows `owner` (the group and
 * the target it posts into): noise control's digest posts and closes, thread starts and card
 * edits, which no mark of a unit covers. When the guard cannot tell yet, its answer stands for
 * the call (the retry policy decides).
 */
export async function throughGuard(
  targets: TargetGuard,
  owner: TargetOwner,
  call: () => Promise<SendResult>,
): Promise<GuardedResult> {
  const verdict = await targets.check(owner, true);
  if (verdict.kind === "refused") return { kind: "refused", error: verdict.error };
  if (verdict.kind === "unsure") return verdict.result;
  return await call();
}

/** A guarded call's outcome as a unit's result: a refusal is final, with the guard's reason. */
export function asSendResult(result: GuardedResult): SendResult {
  return result.kind === "refused"
    ? { kind: "rejected", httpStatus: REFUSED_STATUS, error: result.error }
    : result;
}
