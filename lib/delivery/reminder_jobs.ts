/**
 * Review reminders fire through durable due-time jobs (lib/store/delivery/jobs.ts):
 *
 * - `reminder` { reminderId, slot } is due at a slot. It finds the latest slot that has come
 *   (the job may run late after a restart) and, in one commit checked against the reminder,
 *   records it as the last slot, adds the job of the next slot and, unless the slot is more
 *   than {@link LATE_LIMIT_MS} past, a `reminder_send` job. A job that runs again (a crash before
 *   it finished, a second instance) finds its slot recorded and does nothing, so a slot fires
 *   once and the chain of jobs never doubles. A deleted reminder's job does nothing; the job of a
 *   channel reminder whose group was deleted removes the reminder and adds no further job.
 * - `reminder_send` { reminderId, slot } refreshes the index from GitHub, builds the list and
 *   sends it. A channel reminder's message is a delivery unit with an id made from the reminder
 *   and the slot, in its target's lane, so it is paced and ordered with the group's other
 *   messages and its group's ownership of the target is checked again before it is sent; made
 *   again, it is the same unit. A personal reminder goes to the person's private chat through
 *   the platform's adapter, reserved from its rate limiter (on Discord, the DM channel kept in
 *   lib/store/notify/notify_cache.ts, opened once); a refused call is not retried.
 */
import type { AtomicOperation } from "../store/backend/types.ts";
import type { Config } from "../config.ts";
import { sha256Hex } from "../crypto.ts";
import { addJob, putJob } from "../store/delivery/jobs.ts";
import type { QueueHandler, QueueMessage } from "./job_worker.ts";
import { chatUsersLinkedTo, normalizeGithubLogin } from "../store/auth/links.ts";
import { listOpenPulls, type OpenPull } from "../store/delivery/open_pulls.ts";
import {
  advanceReminder,
  deleteReminder,
  getReminderEntry,
  ownerOf,
  type Reminder,
} from "../store/config/reminders.ts";
import { readGroupSetCached } from "../store/config/group_set.ts";
import type { SendLog } from "../store/delivery/send_logs.ts";
import { createUnit } from "../store/delivery/units.ts";
import { laneKeyFor } from "../target_ref.ts";
import type { Group } from "../types.ts";
import { claimRelinkNotice } from "../store/notify/notify_cache.ts";
import {
  type Access,
  canRead,
  groupReaders,
  RELINK_TEXT,
  teamMembers,
} from "../auth/person_access.ts";
import { storedUserToken } from "../auth/user_tokens.ts";
import { chatPlatform } from "./adapters.ts";
import { encodeUlidTime } from "../ulid.ts";
import { openPrivateChat } from "./private_chat.ts";
import type { DeliveryContext } from "./context.ts";
import { refreshGroupPulls } from "./pull_refresh.ts";
import { lastSlotAtOrBefore, nextSlotAfter } from "./reminder_schedule.ts";
import {
  type ListedPull,
  oldestFirst,
  reminderBody,
  type ReminderList,
  type StaleItem,
  waitsForReview,
} from "./reminder_message.ts";
import { staleWork } from "./stale_work.ts";

/** A slot further past than this when its job runs is passed over (the process was down). */
const LATE_LIMIT_MS = 12 * 3_600_000;
/** How early a job may run before its slot and still count (clocks of instances differ). */
const EARLY_MS = 1_000;
const HOUR_MS = 3_600_000;
/** Most groups whose lists a personal reminder reads. */
const MAX_PERSONAL_GROUPS = 20;

/** The job of a reminder's slot. */
interface ReminderJob {
  type: "reminder" | "reminder_send";
  reminderId: string;
  slot: number;
}

function isReminderJob(message: QueueMessage): message is QueueMessage & ReminderJob {
  const job = message as Partial<ReminderJob>;
  return typeof job.reminderId === "string" && job.reminderId.length <= 64 &&
    Number.isSafeInteger(job.slot);
}

/** Adds to `op` the job of the reminder's first slot after `now`. */
export function scheduleReminder(op: AtomicOperation, reminder: Reminder, now: number): void {
  const slot = nextSlotAfter(reminder.schedule, now);
  addJob(op, { type: "reminder", reminderId: reminder.id, slot }, { delayMs: slot - now });
}

/** The `reminder` and `reminder_send` job handlers. */
export function reminderHandlers(
  ctx: DeliveryContext,
  config: Config,
): Record<"reminder" | "reminder_send", QueueHandler> {
  return {
    reminder: async (message) => {
      if (!isReminderJob(message)) return ctx.log.error("malformed reminder job dropped");
      await fire(ctx, message);
    },
    reminder_send: async (message) => {
      if (!isReminderJob(message)) return ctx.log.error("malformed reminder job dropped");
      await send(ctx, config, message);
    },
  };
}

/** Whether the reminder's group is gone (a channel reminder's internal id is never reused). */
async function ofDeletedGroup(ctx: DeliveryContext, reminder: Reminder): Promise<boolean> {
  if (reminder.scope.kind !== "channel") return false;
  const { internalId } = reminder.scope;
  const set = await readGroupSetCached(ctx.kv);
  return !set.entries.some((entry) => entry.internalId === internalId);
}

async function fire(ctx: DeliveryContext, job: ReminderJob): Promise<void> {
  const entry = await getReminderEntry(ctx.kv, job.reminderId);
  if (!entry) return;
  const reminder = entry.value;
  if (await ofDeletedGroup(ctx, reminder)) {
    await deleteReminder(ctx.kv, ownerOf(reminder), reminder.id);
    return ctx.log.info("reminder of a deleted group removed", { reminderId: reminder.id });
  }
  const now = ctx.now();
  if (now < job.slot - EARLY_MS) {
    // nothing to record yet: the same slot's job again, when it is due
    return await putJob(ctx.kv, { ...job, type: "reminder" }, { delayMs: job.slot - now });
  }
  const due = lastSlotAtOrBefore(reminder.schedule, Math.max(now, job.slot)) ?? job.slot;
  if (due <= reminder.lastSlot) return; // fired already; that run scheduled the next slot
  const next = nextSlotAfter(reminder.schedule, Math.max(now, due));
  const late = now - due > LATE_LIMIT_MS;
  const advanced = await advanceReminder(ctx.kv, entry, due, (op) => {
    addJob(op, { type: "reminder", reminderId: reminder.id, slot: next }, {
      delayMs: next - now,
    });
    if (!late) addJob(op, { type: "reminder_send", reminderId: reminder.id, slot: due });
  });
  if (!advanced) throw new Error("the reminder changed while it fired; trying again");
  ctx.log.info(late ? "reminder slot passed over" : "reminder fired", {
    reminderId: reminder.id,
    slot: due,
  });
}

/** The groups `userId` is a member of, with their internal ids. */
async function groupsOf(ctx: DeliveryContext, userId: string) {
  const { entries } = await readGroupSetCached(ctx.kv);
  return entries.filter((entry) => entry.group.members.some((m) => m.userId === userId));
}

/**
 * How `pull` waits on the person `me` (lower case): `{}` when their review is requested from
 * them, else through the first requested team they are a member of (`members` answers a team's
 * lower-case logins), else null.
 */
async function requestedFrom(
  pull: OpenPull,
  me: string,
  members: (team: string) => Promise<ReadonlySet<string>>,
): Promise<{ viaTeam?: string } | null> {
  if (pull.reviewers.some((login) => login.toLowerCase() === me)) return {};
  for (const team of pull.teams) {
    if ((await members(team)).has(me)) return { viaTeam: team };
  }
  return null;
}

/**
 * The pull requests waiting on the person's review in the groups they are a member of, requested
 * from them directly or from a team they belong to (its members read through
 * `lib/auth/person_access.ts`, with the person's token first, then the group's readers'), only in
 * repositories their own token reads, never their own pull requests; `relink` when their token
 * was revoked or expired.
 */
async function personalList(
  ctx: DeliveryContext,
  config: Config,
  reminder: Reminder & { scope: { kind: "personal" } },
  now: number,
): Promise<ListedPull[] | "relink"> {
  const { userId, login } = reminder.scope;
  const me = normalizeGithubLogin(login);
  const deps = { kv: ctx.kv, config };
  const access = new Map<string, Access>();
  const teams = new Map<string, ReadonlySet<string>>();
  const found: ListedPull[] = [];
  if (!me) return found;
  const groups = (await groupsOf(ctx, userId)).slice(0, MAX_PERSONAL_GROUPS);
  for (const { internalId, group } of groups) {
    const readers = [userId, ...groupReaders(group).filter((id) => id !== userId)];
    const members = async (team: string) => {
      const key = team.toLowerCase();
      if (!teams.has(key)) teams.set(key, new Set(await teamMembers(deps, team, readers)));
      return teams.get(key)!;
    };
    await refreshGroupPulls({ deps, userIds: [userId] }, ctx.log, internalId, now);
    for (const pull of await listOpenPulls(ctx.kv, internalId)) {
      if (!waitsForReview(pull) || pull.author.toLowerCase() === me) continue;
      const through = await requestedFrom(pull, me, members);
      if (through === null) continue;
      const repository = pull.repository.toLowerCase();
      if (!access.has(repository)) access.set(repository, await canRead(deps, userId, repository));
      if (access.get(repository) === "relink") return "relink";
      if (access.get(repository) !== "yes") continue;
      found.push({ ...pull, ...through });
    }
  }
  return oldestFirst(found);
}

/** `pull` without its author among the reviewers: nobody waits on their own review. */
function withoutAuthor(pull: OpenPull): OpenPull {
  const author = pull.author.toLowerCase();
  return { ...pull, reviewers: pull.reviewers.filter((login) => login.toLowerCase() !== author) };
}

/**
 * The group's pull requests waiting for review (each author left out of whom it waits on), and
 * its stale work when the reminder asks for it.
 */
async function channelList(
  ctx: DeliveryContext,
  config: Config,
  group: Group,
  reminder: Reminder & { scope: { kind: "channel" } },
  now: number,
): Promise<{ pulls: OpenPull[]; stale: StaleItem[] }> {
  const { internalId, olderThanHours, stale } = reminder.scope;
  const as = { deps: { kv: ctx.kv, config }, userIds: groupReaders(group) };
  await refreshGroupPulls(as, ctx.log, internalId, now);
  const minimumAge = (olderThanHours ?? 0) * HOUR_MS;
  const open = await listOpenPulls(ctx.kv, internalId);
  const waiting = open.map(withoutAuthor)
    .filter((pull) => waitsForReview(pull) && now - pull.createdAt >= minimumAge);
  return {
    pulls: oldestFirst(waiting),
    stale: stale ? await staleWork(ctx.kv, internalId, open, stale, now) : [],
  };
}

/** Linked chat users of the group's members among the reviewers, by lower-case login. */
async function mentionsOf(
  ctx: DeliveryContext,
  group: Group,
  reminder: Reminder,
  pulls: readonly OpenPull[],
): Promise<Map<string, string>> {
  const members = new Set(group.members.map((m) => normalizeGithubLogin(m.login)));
  const mentions = new Map<string, string>();
  for (const login of new Set(pulls.flatMap((p) => p.reviewers.map((l) => l.toLowerCase())))) {
    if (!members.has(login) || mentions.size >= 25) continue;
    const [chatUser] = await chatUsersLinkedTo(ctx.kv, reminder.target.platform, login);
    if (chatUser) mentions.set(login, chatUser);
  }
  return mentions;
}

async function send(ctx: DeliveryContext, config: Config, job: ReminderJob): Promise<void> {
  const entry = await getReminderEntry(ctx.kv, job.reminderId);
  if (!entry) return;
  const reminder = entry.value;
  const now = ctx.now();
  if (reminder.scope.kind === "personal") {
    const personal = reminder as Reminder & { scope: { kind: "personal" } };
    const pulls = await personalList(ctx, config, personal, now);
    if (pulls === "relink") return await relinkNotice(ctx, config, personal, job);
    const list: ReminderList = {
      heading: "Pull requests waiting on your review",
      pulls,
      showReviewers: false,
      mentions: new Map(),
      allClearText: "Nothing is waiting on your review.",
      now,
    };
    const body = reminderBody(reminder.target.platform, list, reminder.allClear);
    if (body) await sendPersonal(ctx, reminder, job, body);
    return;
  }
  const scope = reminder.scope;
  const group = (await readGroupSetCached(ctx.kv)).entries.find((e) =>
    e.internalId === scope.internalId
  );
  if (!group) return;
  const channel = reminder as Reminder & { scope: { kind: "channel" } };
  const { pulls, stale } = await channelList(ctx, config, group.group, channel, now);
  const list: ReminderList = {
    heading: scope.olderThanHours
      ? `Pull requests waiting for review for over ${scope.olderThanHours}h in ${group.group.name}`
      : `Pull requests waiting for review in ${group.group.name}`,
    pulls,
    showReviewers: true,
    mentions: await mentionsOf(ctx, group.group, reminder, pulls),
    ...(scope.stale
      ? {
        stale: { heading: `No activity for ${scope.stale.days} days or more`, items: stale },
      }
      : {}),
    allClearText: `No pull requests are waiting for review in ${group.group.name}.`,
    now,
  };
  const body = reminderBody(reminder.target.platform, list, reminder.allClear);
  if (!body) return;
  const ids = await slotIds(reminder.id, job.slot);
  const log: SendLog = {
    id: ids.unitId,
    deliveryId: `reminder-${reminder.id}-${job.slot}`,
    eventId: ids.eventId,
    event: "reminder",
    provider: "custom",
    groupId: group.group.id,
    groupInternalId: group.internalId,
    routeId: `reminder-${reminder.id}`,
    platform: reminder.target.platform,
    target: reminder.target,
    status: "retrying",
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  await createUnit(ctx.kv, { log, body, lane: laneKeyFor(reminder.target) }, now, ctx.retentionMs);
}

/**
 * Tells the person of a personal reminder, once per stored token (shared with personal
 * notifications), that their GitHub token stopped working and how to link again.
 */
async function relinkNotice(
  ctx: DeliveryContext,
  config: Config,
  reminder: Reminder & { scope: { kind: "personal" } },
  job: ReminderJob,
): Promise<void> {
  const { userId } = reminder.scope;
  const token = await storedUserToken({ kv: ctx.kv, config }, userId);
  if (!await claimRelinkNotice(ctx.kv, userId, token?.versionstamp ?? "none")) return;
  const text = chatPlatform(reminder.target.platform).text;
  await sendPersonal(ctx, reminder, job, text.body(text.plain(RELINK_TEXT), []));
}

/** A slot's event id (a ULID of the slot's time) and unit id, the same every time. */
async function slotIds(reminderId: string, slot: number) {
  const digest = await sha256Hex(`${reminderId}:${slot}`);
  const eventId = encodeUlidTime(slot) + digest.slice(0, 16).toUpperCase();
  return { eventId, unitId: `${eventId}-${digest.slice(16, 24)}` };
}

async function sendPersonal(
  ctx: DeliveryContext,
  reminder: Reminder,
  job: ReminderJob,
  body: unknown,
): Promise<void> {
  // A Telegram target is the private chat itself; a Discord one names the user.
  const { target } = reminder;
  const chat = await openPrivateChat(
    ctx,
    target.platform,
    target.platform === "telegram" ? target : target.channelId,
  );
  if (chat.kind === "unavailable") {
    return ctx.log.warn("personal reminder not sent", {
      reminderId: reminder.id,
      unavailable: chat.reason,
    });
  }
  if (chat.kind === "unopened") {
    throw new Error("personal reminder: the Discord DM channel could not be opened");
  }
  const { unitId } = await slotIds(reminder.id, job.slot);
  const result = await chat.post(body, unitId);
  if (result.kind === "rate_limited" || result.kind === "retryable") {
    throw new Error(`personal reminder: ${result.error}`); // the job runs again
  }
  if (result.kind === "rejected") {
    ctx.log.warn("personal reminder refused", { reminderId: reminder.id, error: result.error });
  }
}
