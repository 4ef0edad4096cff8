/**
 * What personal notifications remember between events (`docs/personal.md`): whether a
 * person's token could read a repository and whether they belong to a team (each cached with an
 * expiry), the DM channel the bot opened with a Discord user, which token a person was last told
 * to link again for, and the author of a pull request by its head commit.
 */
import type { Kv } from "../backend/types.ts";
import {
  notifyDmChannelKey,
  notifyPullHeadKey,
  notifyRelinkKey,
  notifyRepoAccessKey,
  notifyTeamKey,
} from "../keys.ts";

/** How long a pull request's head is remembered: 30 days. */
const PULL_HEAD_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/** A cached yes or no, or null when nothing (unexpired) is cached. */
async function cachedFlag(kv: Kv, key: readonly (string | number)[]): Promise<boolean | null> {
  const value = (await kv.get<boolean>(key)).value;
  return typeof value === "boolean" ? value : null;
}

/** Whether the person's token could read `repository` (lower case), when cached. */
export function cachedRepoAccess(kv: Kv, userId: string, repository: string) {
  return cachedFlag(kv, notifyRepoAccessKey(userId, repository));
}

/** Caches whether the person's token could read `repository` for `forMs`. */
export async function cacheRepoAccess(
  kv: Kv,
  userId: string,
  repository: string,
  readable: boolean,
  forMs: number,
): Promise<void> {
  await kv.set(notifyRepoAccessKey(userId, repository), readable, { expireIn: forMs });
}

/** Whether the person belongs to `team` (`org/slug`, lower case), when cached. */
export function cachedTeamMembership(kv: Kv, userId: string, team: string) {
  return cachedFlag(kv, notifyTeamKey(userId, team));
}

/** Caches whether the person belongs to `team` for `forMs`. */
export async function cacheTeamMembership(
  kv: Kv,
  userId: string,
  team: string,
  member: boolean,
  forMs: number,
): Promise<void> {
  await kv.set(notifyTeamKey(userId, team), member, { expireIn: forMs });
}

/** The DM channel the bot opened with a Discord user, or null. */
export async function getDmChannel(kv: Kv, discordUserId: string): Promise<string | null> {
  const value = (await kv.get<string>(notifyDmChannelKey(discordUserId))).value;
  return typeof value === "string" ? value : null;
}

/** Remembers the DM channel opened with a Discord user. */
export async function saveDmChannel(kv: Kv, discordUserId: string, channelId: string) {
  await kv.set(notifyDmChannelKey(discordUserId), channelId);
}

/**
 * Records that the person is told to link again because of the token `tokenVersion` (its
 * record's versionstamp, or `none`); false when they were already told for that token.
 */
export async function claimRelinkNotice(
  kv: Kv,
  userId: string,
  tokenVersion: string,
): Promise<boolean> {
  const entry = await kv.get<string>(notifyRelinkKey(userId));
  if (entry.value === tokenVersion) return false;
  const result = await kv.atomic().check(entry).set(notifyRelinkKey(userId), tokenVersion)
    .commit();
  return result.ok;
}

/** Remembers that the pull request whose head is `sha` in `repository` is `login`'s. */
export async function savePullHead(kv: Kv, repository: string, sha: string, login: string) {
  await kv.set(notifyPullHeadKey(repository, sha), login, { expireIn: PULL_HEAD_KEEP_MS });
}

/** The author's login of the pull request whose head is `sha` in `repository`, or null. */
export async function pullHeadAuthor(
  kv: Kv,
  repository: string,
  sha: string,
): Promise<string | null> {
  const value = (await kv.get<string>(notifyPullHeadKey(repository, sha))).value;
  return typeof value === "string" ? value : null;
}
