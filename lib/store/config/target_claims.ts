/**
 * Claiming a chat target from inside it (`/gh subscribe <group>`): someone who manages a
 * Discord channel or a Telegram chat puts it on one of their groups' allowlists. The chat
 * commands check the platform right (Discord: Manage Channels in that channel; Telegram: an
 * administrator of that chat) and the target's shape (lib/chatops/target_claims.ts) before
 * calling {@link claimTarget}; this module checks the rest:
 * the claimer is an owner or admin of the group, and the target is not allowed for any other
 * group (only a super admin may allow a target for several groups). The claim and its audit
 * entry are one atomic write, checked against the allowlist epoch so a target allowed for
 * another group meanwhile is never claimed twice.
 */
import type { AtomicCheck, Kv } from "../backend/types.ts";
import { ID_PATTERN } from "../../ids.ts";
import { MAX_ALLOWED_TARGETS } from "../../limits.ts";
import { describeTargetRef, type TargetRef, targetRefKey } from "../../target_ref.ts";
import { type AllowedTargetsRecord, allowTargetsOnce, isTargetAllowed } from "./allowed_targets.ts";
import type { AuditActor } from "../telemetry/audit.ts";
import { readGroupEntry } from "./group_set.ts";
import { allowedTargetsEpochKey, allowedTargetsPrefix, groupsPointerKey } from "../keys.ts";

/** Why a claim was refused. */
type ClaimRefusal =
  | "invalid_target"
  | "unknown_group"
  | "not_editor"
  | "taken"
  | "too_many"
  | "conflict";

/** Outcome of a claim; a refusal carries a line to answer in the chat. */
export type ClaimResult =
  | { ok: true; target: TargetRef; added: boolean }
  | { ok: false; reason: ClaimRefusal; message: string };

const ATTEMPTS = 5;

/** Whether a group other than `groupId` has the target on its list. */
async function allowedElsewhere(kv: Kv, groupId: string, key: string): Promise<boolean> {
  for await (const entry of kv.list<AllowedTargetsRecord>({ prefix: allowedTargetsPrefix() })) {
    if (entry.key[1] === groupId) continue;
    if (entry.value.targets.some((allowed) => targetRefKey(allowed.target) === key)) return true;
  }
  return false;
}

function refusal(reason: ClaimRefusal, message: string): ClaimResult {
  return { ok: false, reason, message };
}

/**
 * Puts `ref` (a Discord channel or Telegram chat, validated by the caller: see
 * `claimChatTarget` in lib/chatops/target_claims.ts) on the allowlist of `groupId` for `actor`,
 * the claimer's linked GitHub account. Call it only after the platform confirmed that the
 * claimer manages the channel or chat. Claiming a target the group already has succeeds
 * without a write.
 */
export async function claimTarget(
  kv: Kv,
  groupId: string,
  ref: TargetRef,
  actor: AuditActor,
  now: number = Date.now(),
): Promise<ClaimResult> {
  const key = targetRefKey(ref);
  if (!ID_PATTERN.test(groupId)) return refusal("unknown_group", `There is no group ${groupId}.`);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const epoch = await kv.get(allowedTargetsEpochKey());
    const { entry, version } = await readGroupEntry(kv, groupId);
    if (entry === null) return refusal("unknown_group", `There is no group ${groupId}.`);
    const groups: AtomicCheck = { key: groupsPointerKey(), versionstamp: version };
    const member = entry.group.members.find((m) => m.userId === actor.userId);
    if (!member || member.role === "viewer") {
      return refusal(
        "not_editor",
        `Only an owner or admin of group ${groupId} can subscribe it to a ${
          ref.platform === "discord" ? "channel" : "chat"
        }.`,
      );
    }
    if (await isTargetAllowed(kv, groupId, ref)) return { ok: true, target: ref, added: false };
    if (await allowedElsewhere(kv, groupId, key)) {
      return refusal(
        "taken",
        `${describeTargetRef(ref)} is already allowed for another group; only a super admin ` +
          "can allow a target for several groups.",
      );
    }
    const result = await allowTargetsOnce(kv, groupId, [ref], actor, "claim", {
      now,
      checks: [epoch, groups],
    });
    if (result.ok) return { ok: true, target: ref, added: result.added.length > 0 };
    if (result.reason === "too_many") {
      return refusal(
        "too_many",
        `Group ${groupId} already has ${MAX_ALLOWED_TARGETS} allowed targets; remove some first.`,
      );
    }
  }
  return refusal("conflict", "The allowed targets kept changing; try again.");
}
