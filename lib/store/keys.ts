/**
 * Key builders: one function per KV collection, so every read and write of a
 * collection goes through the same tuple shape. Nothing outside `lib/store`
 * builds keys by hand. Builders take typed values (a {@link Scope}, a
 * {@link SendStatus}, a {@link Platform}), and the few stored spellings that differ
 * from the typed value (the global scope is `global` in dedup and nonce keys and
 * `all` in delivery counters, as stored since the start) are written here only.
 */
import type { KvKey, KvListSelector } from "./backend/types.ts";
import type { Platform, Provider, Scope } from "../types.ts";
import type { CounterScope, CounterStatus } from "./telemetry/metrics.ts";
import type { SendStatus } from "./delivery/send_logs.ts";

/** Health probe record, read by `GET /health`. */
export const healthKey = () => ["health"] as const;

/** Stored GitHub token of a user. */
export const tokenKey = (userId: string) => ["token", userId] as const;

/** Reverse index from sha256(access token) to the user id. */
export const tokenReverseKey = (tokenSha256: string) => ["token-reverse", tokenSha256] as const;

/** Per-group webhook secret. */
export const tenantKey = (groupId: string) => ["tenant", groupId] as const;

/** A group record as stored before group sets (read once, to move it into a set). */
export const legacyGroupKey = (groupId: string) => ["groups", groupId] as const;

/** Prefix of every group record stored before group sets. */
export const legacyGroupsPrefix = () => ["groups"] as const;

// --- Groups (lib/store/config/group_set.ts) ------------------------------------------------------

/** Pointer to the current group set: `{ setId, count, updatedAt }`; every group write sets it. */
export const groupsPointerKey = () => ["groups_pointer"] as const;

/** One group of a group set, by its id: `{ group, internalId }`. */
export const groupSetEntryKey = (setId: string, groupId: string) =>
  ["group_sets", setId, groupId] as const;

/** Prefix of one group set's entries. */
export const groupSetPrefix = (setId: string) => ["group_sets", setId] as const;

/** A group set being written; removed when the pointer switches to it (orphan sweeping). */
export const groupSetPendingKey = (setId: string) => ["group_sets_pending", setId] as const;

/** Prefix of every pending group set. */
export const groupSetsPendingPrefix = () => ["group_sets_pending"] as const;

/** An accepted event's metadata (payload chunks live apart). */
export const eventKey = (eventId: string) => ["events", eventId] as const;

/** Prefix of every accepted event's record (event id order, oldest first). */
export const eventsPrefix = () => ["events"] as const;

/** One chunk of an accepted event's raw payload. */
export const eventChunkKey = (eventId: string, index: number) =>
  ["event_chunks", eventId, index] as const;

/** Prefix of an event's payload chunks. */
export const eventChunksPrefix = (eventId: string) => ["event_chunks", eventId] as const;

/** An ingress scope as stored in dedup and nonce keys: `global`, or `group:<id>` (ids have no colon). */
function ingressScopePart(scope: Scope): string {
  return scope.type === "global" ? "global" : `group:${scope.groupId}`;
}

/** De-duplication mark of a delivery id within an ingress scope. */
export const dedupKey = (scope: Scope, provider: Provider, deliveryId: string) =>
  ["dedup", ingressScopePart(scope), provider, deliveryId] as const;

/** Single-use nonce of a sender within an ingress scope. */
export const nonceKey = (scope: Scope, nonce: string) =>
  ["nonces", ingressScopePart(scope), nonce] as const;

/** One audit entry, by its ulid. */
export const auditKey = (entryId: string) => ["audit", entryId] as const;

/** Prefix of every audit entry (ulid order, oldest first). */
export const auditPrefix = () => ["audit"] as const;

/** Index of a group's audit entries, by the group's internal id: the value is the entry id. */
export const auditByGroupKey = (internalId: string, entryId: string) =>
  ["audit_by_group", internalId, entryId] as const;

/** Prefix of one group's audit index (by internal id). */
export const auditByGroupPrefix = (internalId: string) => ["audit_by_group", internalId] as const;

// --- Routes (lib/store/config/routes.ts) ---------------------------------------------------------

/** Pointer to the current route set: `{ setId, count, updatedAt }`. */
export const routesPointerKey = () => ["routes_pointer"] as const;

/** One route of a route set, by its position in the stored order. */
export const routeSetEntryKey = (setId: string, index: number) =>
  ["route_sets", setId, index] as const;

/** Prefix of one route set's entries. */
export const routeSetPrefix = (setId: string) => ["route_sets", setId] as const;

/** A route set being written; removed when the pointer switches to it (orphan sweeping). */
export const routeSetPendingKey = (setId: string) => ["route_sets_pending", setId] as const;

/** Prefix of every pending route set. */
export const routeSetsPendingPrefix = () => ["route_sets_pending"] as const;

// --- Identity (lib/store/auth/sessions.ts, oauth_states.ts, link_requests.ts, links.ts)

/** An admin session, by the sha256 hex of its cookie value (the raw id is never stored). */
export const sessionKey = (sessionIdSha256: string) => ["sessions", sessionIdSha256] as const;

/** A signed OAuth `state` the callback has used (by the state's random id), until it expires. */
export const usedOAuthStateKey = (stateId: string) => ["oauth_states_used", stateId] as const;

/** The instance's random key that signs OAuth states and chat link tokens (one per store). */

/** The one pending link request of a chat user (`/gh link`, `/gh login`), replaced by a newer one. */
export const linkRequestKey = (platform: string, chatUserId: string) =>
  ["link_requests", platform, chatUserId] as const;

/** A Discord user's linked GitHub account. */
export const discordLinkKey = (discordUserId: string) => ["discord_links", discordUserId] as const;

/** A Telegram user's linked GitHub account. */
export const telegramLinkKey = (telegramUserId: string) =>
  ["telegram_links", telegramUserId] as const;

/** A person's own settings (lib/store/auth/user_preferences.ts), by GitHub user id. */
export const userPreferencesKey = (userId: string) => ["user_preferences", userId] as const;

// --- Delivery: send logs, unit bodies, lanes, metrics (lib/store/delivery/send_logs.ts, units.ts,
// lanes.ts, metrics.ts) ----------------------------------------------------------------------

/** One send log record (one per delivery unit), by its sortable id. */
export const sendLogKey = (logId: string) => ["send_logs", logId] as const;

/** Prefix of every send log record (id order, oldest first). */
export const sendLogsPrefix = () => ["send_logs"] as const;

/** Index of a group's send logs, by the group's internal id: the value is the log id. */
export const sendLogByGroupKey = (internalId: string, logId: string) =>
  ["send_logs_by_group", internalId, logId] as const;

/** Prefix of one group's send log index (by internal id). */
export const sendLogByGroupPrefix = (internalId: string) =>
  ["send_logs_by_group", internalId] as const;

/** Index of a route's send logs (route ids are unique within a group; by internal id). */
export const sendLogByRouteKey = (internalId: string, routeId: string, logId: string) =>
  ["send_logs_by_route", internalId, routeId, logId] as const;

/** Prefix of one route's send log index (by the group's internal id). */
export const sendLogByRoutePrefix = (internalId: string, routeId: string) =>
  ["send_logs_by_route", internalId, routeId] as const;

/** Index of send logs by status. */
export const sendLogByStatusKey = (status: SendStatus, logId: string) =>
  ["send_logs_by_status", status, logId] as const;

/** Prefix of one status's send log index. */
export const sendLogByStatusPrefix = (status: SendStatus) =>
  ["send_logs_by_status", status] as const;

/** Index of a group's send logs by status (by the group's internal id). */
export const sendLogByGroupStatusKey = (internalId: string, status: SendStatus, logId: string) =>
  ["send_logs_by_group_status", internalId, status, logId] as const;

/** Prefix of one group's send logs with one status (by internal id). */
export const sendLogByGroupStatusPrefix = (internalId: string, status: SendStatus) =>
  ["send_logs_by_group_status", internalId, status] as const;

/** Index of send logs by delivery id. */
export const sendLogByDeliveryKey = (deliveryId: string, logId: string) =>
  ["send_logs_by_delivery", deliveryId, logId] as const;

/** Prefix of one delivery's send logs. */
export const sendLogByDeliveryPrefix = (deliveryId: string) =>
  ["send_logs_by_delivery", deliveryId] as const;

/** The rendered platform body of a unit not yet delivered (kept for redelivery). */
export const unitBodyKey = (logId: string) => ["unit_bodies", logId] as const;

// --- Target health (lib/store/delivery/target_health.ts) ---------------------------------------------

/** The health of one target of one group (by the group's internal id and the target's key). */
export const targetHealthKey = (internalId: string, targetKey: string) =>
  ["target_health", internalId, targetKey] as const;

/** Prefix of one group's target health records. */
export const targetHealthPrefix = (internalId: string) => ["target_health", internalId] as const;

/** A unit held while its target is paused, in log id (event) order. */
export const heldUnitKey = (internalId: string, targetKey: string, logId: string) =>
  ["target_held", internalId, targetKey, logId] as const;

/** Prefix of every held unit (by group internal id, then target). */
export const heldUnitsRoot = () => ["target_held"] as const;

/** Prefix of the units held for one target of one group. */
export const heldUnitsPrefix = (internalId: string, targetKey: string) =>
  ["target_held", internalId, targetKey] as const;

/** How many times targets of `platform` were paused, resumed or discarded (`change`). */
export const targetHealthCounterKey = (platform: string, change: string) =>
  ["target_health_counts", platform, change] as const;

/** Prefix of every target health counter. */
export const targetHealthCountersPrefix = () => ["target_health_counts"] as const;

/** A unit waiting in its target's lane, in log id order. */
export const laneEntryKey = (lane: string, logId: string) => ["lanes", lane, logId] as const;

/** Prefix of one lane's waiting units. */
export const laneEntriesPrefix = (lane: string) => ["lanes", lane] as const;

/** A busy lane's run record (token, due time, lease); absent when the lane is idle. */
export const laneRunKey = (lane: string) => ["lane_runs", lane] as const;

/** Prefix of every busy lane's run record. */
export const laneRunsPrefix = () => ["lane_runs"] as const;

/** A lane's append counter: every append changes it, so a lane never goes idle over a unit. */
export const laneTailKey = (lane: string) => ["lane_tails", lane] as const;

/** The pace a lane's last owner left (rate-limit state), read by the next owner. */
export const lanePaceKey = (lane: string) => ["lane_paces", lane] as const;

/** A named lease held by one instance at a time (e.g. the delivery sweep). */
export const leaseKey = (name: string) => ["leases", name] as const;

/** A running delivery instance's heartbeat. */
export const instanceKey = (instanceId: string) => ["delivery_instances", instanceId] as const;

/** Prefix of every delivery instance's heartbeat. */
export const instancesPrefix = () => ["delivery_instances"] as const;

/** A counter scope as stored: `all`, or `group:<internal id>`. */
function counterScopePart(scope: CounterScope): string {
  return scope.type === "global" ? "all" : `group:${scope.internalId}`;
}

/**
 * One delivery counter: scope, UTC day (`YYYY-MM-DD`), platform, event kind, status (or a
 * withdrawal of a final status that redelivery reopened, `metrics.ts`).
 */
export const deliveryCounterKey = (
  scope: CounterScope,
  day: string,
  platform: Platform,
  kind: string,
  status: CounterStatus,
) => ["delivery_counters", counterScopePart(scope), day, platform, kind, status] as const;

/** Prefix of every delivery counter. */
export const deliveryCountersRoot = () => ["delivery_counters"] as const;

/** Prefix of one scope's delivery counters (day order). */
export const deliveryCountersPrefix = (scope: CounterScope) =>
  ["delivery_counters", counterScopePart(scope)] as const;

/** One scope's delivery counters from day `from` to day `to`, both included. */
export function deliveryCountersBetween(
  scope: CounterScope,
  from: string,
  to: string,
): KvListSelector {
  const prefix = deliveryCountersPrefix(scope);
  return { start: [...prefix, from], end: [...prefix, `${to}~`] };
}

/**
 * One delivery latency counter: how many units of a scope (`all` or `group:<internal id>`)
 * and UTC day reached the platform within a bucket, named by its upper bound in milliseconds.
 */
export const deliveryLatencyKey = (scope: string, day: string, bucketMs: number) =>
  ["delivery_latency", scope, day, bucketMs] as const;

/** Prefix of every delivery latency counter. */
export const deliveryLatencyRoot = () => ["delivery_latency"] as const;

/** Prefix of one scope's delivery latency counters (day order). */
export const deliveryLatencyPrefix = (scope: string) => ["delivery_latency", scope] as const;

// --- Admin API (lib/store/config/fragments.ts, invites.ts) ------------------------------------------

/** A group's filter fragments, stored together: `{ fragments, updatedAt }`. */
export const fragmentsKey = (groupId: string) => ["fragments", groupId] as const;

/** A pending group invite, by its token. */
export const inviteKey = (token: string) => ["invites", token] as const;

/** Index of a group's pending invites: the value is the token. */
export const invitesByGroupKey = (groupId: string, token: string) =>
  ["invites_by_group", groupId, token] as const;

/** Prefix of one group's invite index. */
export const invitesByGroupPrefix = (groupId: string) => ["invites_by_group", groupId] as const;

/**
 * Changes with every write or delete of one of a group's invites (the value: when, Unix ms), so
 * one check guards all of them.
 */
export const invitesVersionKey = (groupId: string) => ["invites_version", groupId] as const;

// --- Routed events (lib/store/delivery/event_routes.ts) ---------------------------------------------

/** Which routes of a group one event fired (none included), by the group's internal id. */
export const eventRoutesKey = (internalId: string, eventId: string) =>
  ["event_routes", internalId, eventId] as const;

/** Prefix of one group's routed events (event id order, oldest first). */
export const eventRoutesPrefix = (internalId: string) => ["event_routes", internalId] as const;

/**
 * Index of a group's routed events by the sender's delivery id (at most
 * `MAX_DELIVERY_ID_LENGTH` characters): the value is the event id.
 */
export const eventDeliveryKey = (internalId: string, deliveryId: string, eventId: string) =>
  ["event_routes_by_delivery", internalId, deliveryId, eventId] as const;

/** Prefix of one delivery id's events in a group (event id order, oldest first). */
export const eventDeliveryPrefix = (internalId: string, deliveryId: string) =>
  ["event_routes_by_delivery", internalId, deliveryId] as const;

/**
 * Index of a group's routed events by repository (`owner/name` in lower case, at most 200
 * characters): the value is the event id.
 */
export const eventRepositoryKey = (internalId: string, repository: string, eventId: string) =>
  ["event_routes_by_repository", internalId, repository, eventId] as const;

/** Prefix of one repository's events in a group (event id order, oldest first). */
export const eventRepositoryPrefix = (internalId: string, repository: string) =>
  ["event_routes_by_repository", internalId, repository] as const;

// --- Pending fan-outs (lib/store/delivery/pending_fan_outs.ts) -------------------------------------

/** An accepted event whose units are not all created yet (set on accept, cleared by fan-out). */
export const fanOutPendingKey = (eventId: string) => ["fan_out_pending", eventId] as const;

/** Prefix of every pending fan-out (event id order, oldest first). */
export const fanOutPendingPrefix = () => ["fan_out_pending"] as const;

// --- Jobs (lib/store/delivery/jobs.ts) -------------------------------------------------

/** A job due (or, while claimed, leased) until `dueAt` (Unix ms); jobs list in due order. */
export const jobKey = (dueAt: number, jobId: string) => ["jobs", dueAt, jobId] as const;

/** Prefix of every job. */
export const jobsPrefix = () => ["jobs"] as const;

/** A job that failed its last attempt, with its reason (deliver jobs are parked instead). */
export const deadJobKey = (jobId: string) => ["jobs_dead", jobId] as const;

/** Prefix of every dead job. */
export const deadJobsPrefix = () => ["jobs_dead"] as const;

/** Written by every commit that adds a job; job workers watch it to wake at once. */
export const jobsWakeKey = () => ["jobs_wake"] as const;

// --- Undelivered deliver jobs -------------------------------------------------

/**
 * A deliver job parked under the oldest event it names: one that failed its last attempt
 * (lib/store/delivery/jobs.ts), or one the KV queue of earlier versions gave up on; kept to be re-queued.
 */
export const undeliveredJobKey = (eventId: string) => ["undelivered_jobs", eventId] as const;

/** Prefix of every undelivered deliver job. */
export const undeliveredJobsPrefix = () => ["undelivered_jobs"] as const;

// --- Target ownership (lib/store/config/allowed_targets.ts, target_claims.ts, target_upgrade.ts) ---

/** A group's allowed chat targets: `{ targets, updatedAt, pages? }`, the list's first page. */
export const allowedTargetsKey = (groupId: string) => ["allowed_targets", groupId] as const;

/** A further page (1, 2, …) of a group's allowed targets: `{ targets }`. */
export const allowedTargetsPageKey = (groupId: string, page: number) =>
  ["allowed_targets", groupId, page] as const;

/** Prefix of every group's allowed targets. */
export const allowedTargetsPrefix = () => ["allowed_targets"] as const;

/** Counts additions to any allowlist, so a claim sees a target being allowed meanwhile. */
export const allowedTargetsEpochKey = () => ["allowed_targets_epoch"] as const;

/** Set once the targets of routes stored before target ownership existed were allowed. */
export const allowedTargetsUpgradedKey = () => ["allowed_targets_upgraded"] as const;

// --- Chat-ops (lib/store/delivery/message_refs.ts) --------------------------------------------------

/** What a sent notification is about, by platform, chat (channel, thread or chat) and message. */
export const messageRefKey = (platform: Platform, chatId: string, messageId: string) =>
  ["message_refs", platform, chatId, messageId] as const;

/** Prefix of the notifications sent into one chat. */
export const messageRefsOfChatPrefix = (platform: Platform, chatId: string) =>
  ["message_refs", platform, chatId] as const;

// --- Subject messages and mentions (lib/store/delivery/subject_messages.ts, links.ts) -----------------

/**
 * The one message a chat shows for a subject, by the internal id of the group whose route
 * posted it: edited in place (`in_place`: by platform, place and hashed subject key) or a
 * threaded route's card (`thread`: by route, lane and subject `owner/repo#12`).
 */
export const subjectMessageKey = (
  groupInternalId: string,
  use: "in_place" | "thread",
  scope: string,
  place: string,
  subject: string,
) => ["subject_messages", groupInternalId, use, scope, place, subject] as const;

/** The subject (`owner/repo#12`) whose thread card a branch (`owner/repo@refs/heads/x`) has. */
export const subjectHeadKey = (
  groupInternalId: string,
  routeId: string,
  lane: string,
  head: string,
) => ["subject_heads", groupInternalId, routeId, lane, head] as const;

/**
 * Earlier layout of an edit-in-place record (moved to {@link subjectMessageKey} when read).
 * (Records of the still earlier `["progress_messages", platform, place, key]` are no longer
 * read; they expire.)
 */
export const progressMessageKey = (
  groupInternalId: string,
  platform: Platform,
  place: string,
  subjectKey: string,
) => ["group_progress_messages", groupInternalId, platform, place, subjectKey] as const;

/** A chat user linked to a GitHub login (lower case): the reverse of the link records. */
export const linkByGithubLoginKey = (platform: Platform, login: string, chatUserId: string) =>
  ["links_by_github_login", platform, login, chatUserId] as const;

/** Prefix of the chat users of one platform linked to a GitHub login (lower case). */
export const linksByGithubLoginPrefix = (platform: Platform, login: string) =>
  ["links_by_github_login", platform, login] as const;
// --- Noise control (lib/store/delivery/digests.ts, lib/store/delivery/subject_messages.ts) --------------------

/** A digest: the events of one route gathered for one target in one window. */
export const digestKey = (digestId: string) => ["digests", digestId] as const;

/** Prefix of every digest. */
export const digestsPrefix = () => ["digests"] as const;

/** The open window of a route for one lane (`kind`: burst digests or quiet hours). */
export const digestWindowKey = (kind: string, groupId: string, routeId: string, lane: string) =>
  ["digest_windows", kind, groupId, routeId, lane] as const;

/** How a unit of a route with noise options went: sent as usual or gathered into a digest. */
export const digestMemberKey = (logId: string) => ["digest_members", logId] as const;

/** Earlier layout of a thread card (moved to {@link subjectMessageKey} when read). */
export const threadCardKey = (
  groupInternalId: string,
  routeId: string,
  lane: string,
  subject: string,
) => ["thread_cards", groupInternalId, routeId, lane, subject] as const;

/** Earlier layout of a branch's card pointer (moved to {@link subjectHeadKey} when read). */
export const threadHeadKey = (
  groupInternalId: string,
  routeId: string,
  lane: string,
  head: string,
) => ["thread_heads", groupInternalId, routeId, lane, head] as const;

// --- Telegram updates (lib/store/auth/telegram_updates.ts) ---------------------------------------

/** An update Telegram sent, once taken by an instance (Telegram's update ids are integers). */
export const telegramUpdateKey = (updateId: number) => ["telegram_updates", updateId] as const;

// --- Instance secret (lib/store/auth/instance_secret.ts) ---------------------------------------

/** The instance's own random secret, from which signing keys are derived. */
export const instanceSecretKey = () => ["instance_secret"] as const;

// --- Selectors ------------------------------------------------------------------------------

/** The keys under `prefix`, only those below `[...prefix, below]` when `below` is given. */
export function selectBelow(prefix: KvKey, below?: string): KvListSelector {
  return below === undefined ? { prefix } : { prefix, end: [...prefix, below] };
}

// --- Rejected webhook requests (lib/store/telemetry/rejections.ts) -----------------------------------

/**
 * A rejected webhook request kept for the console, by scope (`global`, or `group` and the
 * group's internal id) and a ulid.
 */
export const rejectionKey = (scope: RejectionScope, id: string) =>
  [...rejectionsPrefix(scope), id] as const;

/** Prefix of the rejected requests of one scope (ulid order, oldest first). */
export const rejectionsPrefix = (scope: RejectionScope): KvKey =>
  scope.type === "global" ? ["rejections", "global"] : ["rejections", "group", scope.internalId];

/** Whose rejected requests: the instance's own ingress and unknown groups, or one group's. */
export type RejectionScope = { type: "global" } | { type: "group"; internalId: string };

// --- Personal notifications (lib/store/notify_*.ts) ----------------------------------------

/** A person's personal-notification settings, by GitHub user id. */
export const notifySettingsKey = (userId: string) => ["notify_settings", userId] as const;

/** Marks an event whose personal notifications were queued (so a re-run queues none). */
export const notifyQueuedKey = (eventId: string) => ["notify_queued", eventId] as const;

/** Marks an event already held for one chat account (so a re-run holds it once). */
export const notifyHeldOnceKey = (platform: Platform, chatUserId: string, eventId: string) =>
  ["notify_held_once", platform, chatUserId, eventId] as const;

/** One chat account's delivery state: last message sent, flush due, a change counter. */
export const notifyInboxKey = (platform: Platform, chatUserId: string) =>
  ["notify_inbox", platform, chatUserId] as const;

/** One notification held for a chat account until its next flush, by a ulid. */
export const notifyHeldKey = (platform: Platform, chatUserId: string, itemId: string) =>
  [...notifyHeldPrefix(platform, chatUserId), itemId] as const;

/** Prefix of the notifications held for one chat account (oldest first). */
export const notifyHeldPrefix = (platform: Platform, chatUserId: string) =>
  ["notify_held", platform, chatUserId] as const;

/** The events of the last personal message sent to a chat account (until its flush settles). */
export const notifySentKey = (platform: Platform, chatUserId: string) =>
  ["notify_sent", platform, chatUserId] as const;

/** Whether a person's token could read a repository (lower-case `owner/name`), cached. */
export const notifyRepoAccessKey = (userId: string, repository: string) =>
  ["notify_repo_access", userId, repository] as const;

/** The logins (lower case) of a team's members (`org/slug`, lower case), cached. */
export const notifyTeamMembersKey = (team: string) => ["notify_team_members", team] as const;

/** The DM channel the bot opened with a Discord user. */
export const notifyDmChannelKey = (discordUserId: string) =>
  ["notify_dm_channel", discordUserId] as const;

/** The token (by versionstamp) a person was last told to link again for. */
export const notifyRelinkKey = (userId: string) => ["notify_relink", userId] as const;

/** The author of the pull request whose head is `sha` in a repository (lower case). */
export const notifyPullHeadKey = (repository: string, sha: string) =>
  ["notify_pull_head", repository, sha] as const;
// --- Bulk replays (lib/store/delivery/replays.ts) ---------------------------------------------------

/** One bulk replay of a group (by the group's internal id), by its ulid. */
export const replayKey = (internalId: string, replayId: string) =>
  ["replays", internalId, replayId] as const;

/** Prefix of one group's bulk replays (ulid order, oldest first). */
export const replaysOfGroupPrefix = (internalId: string) => ["replays", internalId] as const;
// --- Open pull requests and review reminders (lib/store/delivery/open_pulls.ts, reminders.ts) --------

/** An open pull request of a group's repository (`repository` in lower case). */
export const openPullKey = (internalId: string, repository: string, number: number) =>
  ["open_pulls", internalId, repository, number] as const;

/** Prefix of a group's open pull requests (all repositories). */
export const openPullsPrefix = (internalId: string) => ["open_pulls", internalId] as const;

/** Prefix of the open pull requests of one repository of a group. */
export const openPullsOfRepositoryPrefix = (internalId: string, repository: string) =>
  ["open_pulls", internalId, repository] as const;

/**
 * A closed pull request of a group's repository (`repository` in lower case), kept a while so an
 * older event handled late does not bring it back; apart from the open ones so it never counts
 * against their bound.
 */
export const closedPullKey = (internalId: string, repository: string, number: number) =>
  ["closed_pulls", internalId, repository, number] as const;

/** A repository whose pull requests a group's index follows (`repository` in lower case). */
export const pullRepositoryKey = (internalId: string, repository: string) =>
  ["pull_repositories", internalId, repository] as const;

/** Prefix of the repositories a group's pull request index follows. */
export const pullRepositoriesPrefix = (internalId: string) =>
  ["pull_repositories", internalId] as const;

/**
 * How many changes events made to a repository's entries of a group's index (a KvU64 counter,
 * `repository` in lower case): a refresh from GitHub checks it so it never undoes one.
 */
export const pullChangesKey = (internalId: string, repository: string) =>
  ["pull_changes", internalId, repository] as const;

/** An open issue of a group's repository (`repository` in lower case; open_issues.ts). */
export const openIssueKey = (internalId: string, repository: string, number: number) =>
  ["open_issues", internalId, repository, number] as const;

/** Prefix of a group's open issues (all repositories). */
export const openIssuesPrefix = (internalId: string) => ["open_issues", internalId] as const;

/** Prefix of the open issues of one repository of a group. */
export const openIssuesOfRepositoryPrefix = (internalId: string, repository: string) =>
  ["open_issues", internalId, repository] as const;

/** A repository whose issues a group's index follows (`repository` in lower case). */
export const issueRepositoryKey = (internalId: string, repository: string) =>
  ["issue_repositories", internalId, repository] as const;

/** Prefix of the repositories a group's issue index follows. */
export const issueRepositoriesPrefix = (internalId: string) =>
  ["issue_repositories", internalId] as const;

/** A review reminder. */
export const reminderKey = (reminderId: string) => ["reminders", reminderId] as const;

/** Whose reminders: a person's (GitHub user id) or a group's (internal id). */
export type ReminderOwnerRef = { kind: "user"; userId: string } | {
  kind: "group";
  internalId: string;
};

/** The list of a person's or a group's reminder ids. */
export const reminderOwnerKey = (owner: ReminderOwnerRef) =>
  owner.kind === "user"
    ? ["reminder_owners", "user", owner.userId] as const
    : ["reminder_owners", "group", owner.internalId] as const;

// --- What a deleted group leaves (lib/store/config/group_leftovers.ts) -------------------------

/**
 * The families whose keys go on with a group's internal id right after the root given here and
 * that never expire: open pull requests and issues (and their closed markers, which expire),
 * the repositories those indexes follow (and the pull request index's change counters), target
 * health records, the audit index and the group's reminder list ({@link reminderOwnerKey}).
 */
export const groupDataRoots = (): readonly KvKey[] => [
  ["open_pulls"],
  ["closed_pulls"],
  ["pull_repositories"],
  ["pull_changes"],
  ["open_issues"],
  ["issue_repositories"],
  ["target_health"],
  ["audit_by_group"],
  ["reminder_owners", "group"],
];
