/**
 * Target ownership at send time: before each attempt the delivery worker checks that the
 * unit's group may still post into its target. The channel or chat must be on the group's
 * allowlist now (a target removed since the route was saved is not sent to), and a Discord
 * thread must be a thread of the channel the target names (a thread is allowed through its
 * parent channel, so a route cannot reach a foreign thread by pairing it with an allowed
 * channel). Telegram topics always live in their chat, so the chat decides.
 */
import type { ThreadParents } from "../discord/threads.ts";
import { isTargetAllowed } from "../store/allowed_targets.ts";
import type { SendLog } from "../store/send_logs.ts";
import { allowTargetsOfStoredRoutes } from "../store/target_upgrade.ts";
import type { SendResult } from "../platform/send_result.ts";

/** The error of a unit whose target its group may not post into. */
export const NOT_ALLOWED = "target not allowed for group";

/** Whether a unit may be sent. */
export type TargetVerdict =
  | { kind: "allowed" }
  /** Never send it: the unit ends `dead` with `error`. */
  | { kind: "refused"; error: string }
  /** The platform could not tell (yet): the result goes to the retry policy. */
  | { kind: "unsure"; result: SendResult };

/** The send-time check of target ownership. */
export interface TargetGuard {
  /**
   * Allows, once per store, the targets of routes stored before target ownership existed
   * (`lib/store/target_upgrade.ts`); every check waits for it. Answers how many it allowed.
   */
  upgrade(): Promise<number>;
  /** Whether the unit of `log` may be sent to its target now. */
  check(log: SendLog): Promise<TargetVerdict>;
}

/** The guard of a delivery worker on `kv`, asking Discord about threads through `threads`. */
export function createTargetGuard(kv: Deno.Kv, threads: ThreadParents): TargetGuard {
  let upgrading: Promise<number> | null = null;
  const upgrade = () =>
    upgrading ??= allowTargetsOfStoredRoutes(kv).catch((error) => {
      upgrading = null;
      throw error;
    });
  return {
    upgrade,
    async check(log) {
      await upgrade();
      if (!(await isTargetAllowed(kv, log.groupId, log.target))) {
        return { kind: "refused", error: NOT_ALLOWED };
      }
      const target = log.target;
      if (target.platform !== "discord" || target.threadId === undefined) {
        return { kind: "allowed" };
      }
      const thread = await threads.lookup(target.threadId);
      if (thread.kind === "failed") return { kind: "unsure", result: thread.result };
      if (thread.kind === "thread" && thread.parentId === target.channelId) {
        return { kind: "allowed" };
      }
      return {
        kind: "refused",
        error: `${NOT_ALLOWED}: ${target.threadId} is not a thread of channel ${target.channelId}`,
      };
    },
  };
}
