/**
 * What personal notifications remember between events (`docs/personal.md`): whether a
 * person's token could read a repository and who belongs to a team (each cached with an
 * expiry), the DM channel the bot opened with a Discord user, which token a person was last told
 * to link again for, and the author of a pull request by its head commit.
 */
import type { Kv } from "../backend/types.ts";
import {
  notifyDmChannelKey,
  notifyPullHeadKey,
  notifyRelinkKey,
  notifyRepoAccessKey,
  notifyTeamMembersKey,
} from "../keys.ts";

/** The longest an answer is kept: ten minutes (a shorter `forMs` keeps it less). */
export const ANSWER_KEEP_MAX_MS = 10 * 60_000;

/** How long a pull request's head is remembered: 30 days. */
export const PULL_HEAD_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/** What GitHub answered about one thing, kept for a while. */
interface CachedAnswer<T> {
  key: readonly (string | number)[];
  /** Whether a stored value is a well-formed answer. */
  valid(value: unknown): value is T;
}

/** Whether the person's token could read `repository` (lower case). */
export function repoAccessAnswer(userId: string, repository: string): CachedAnswer<boolean> {
  return {
    key: notifyRepoAccessKey(userId, repository),
    valid: (value) => typeof value === "boolean",
  };
}

/** The logins (lower case) of the members of `team` (`org/slug`, lower case). */
export function teamMembersAnswer(team: string): CachedAnswer<string[]> {
  return {
    key: notifyTeamMembersKey(team),
    valid: (value): value is string[] =>
      Array.isArray(value) && value.every((login) => typeof login === "string"),
  };
}

/** The cached answer, or null when none (unexpired, well formed) is kept. */
export async function cachedAnswer<T>(kv: Kv, answer: CachedAnswer<T>): Promise<T | null> {
  const value = (await kv.get<unknown>(answer.key)).value;
  return answer.valid(value) ? value : null;
}

/** Keeps `value` as the answer for `forMs`, at most {@link ANSWER_KEEP_MAX_MS}. */
export async function cacheAnswer<T>(
  kv: Kv,
  answer: CachedAnswer<T>,
  value: T,
  forMs: number,
): Promise<void> {
  await kv.set(answer.key, value, { expireIn: Math.min(forMs, ANSWER_KEEP_MAX_MS) });
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
 * Forgets the DM channel remembered for a Discord user when it is still `channelId` (Discord
 * no longer knows it), so the next message opens one again; a channel saved meanwhile is kept.
 */
export async function forgetDmChannel(kv: Kv, discordUserId: string, channelId: string) {
  const key = notifyDmChannelKey(discordUserId);
  const stored = await kv.get<string>(key);
  if (stored.value !== channelId) return;
  await kv.atomic().check(stored).delete(key).commit();
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
