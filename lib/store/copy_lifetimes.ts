/**
 * Lifetimes a store copy gives entries (lib/store/copy.ts).
 *
 * Deno KV stores an expiry with an entry but never returns it, so a copy cannot carry an
 * entry's remaining lifetime over. Instead every key family the store writes with `expireIn`
 * gets that family's longest lifetime again, counted from the copy: nothing disappears earlier
 * than it would have in the source, and an entry lives at most one lifetime longer. Families
 * not listed here are never written with an expiry and are copied without one
 * (tests/store/store_copy_lifetimes_test.ts checks every expiring write in lib/ against this).
 */
import { ANSWER_KEEP_MAX_MS, PULL_HEAD_KEEP_MS } from "./notify/notify_cache.ts";
import { CLOSED_KEEP_MS as CLOSED_ISSUE_KEEP_MS, isClosedIssue } from "./delivery/open_issues.ts";
import { CLOSED_KEEP_MS as CLOSED_PULL_KEEP_MS } from "./delivery/open_pulls.ts";
import { KEEP_MS as DIGEST_KEEP_MS } from "./delivery/digests.ts";
import {
  DEDUP_WINDOW_MS,
  EVENT_RETENTION_MS,
  NONCE_WINDOW_MS,
  ORPHAN_GRACE_MS,
} from "./delivery/events.ts";
import { INTERACTION_MEMORY_MS } from "./auth/interaction_ids.ts";
import { INVITE_LIFETIME_MS } from "./config/invites.ts";
import { DEAD_JOB_KEEP_MS } from "./delivery/jobs.ts";
import { LINK_REQUEST_LIFETIME_MS } from "./auth/link_requests.ts";
import { MESSAGE_REF_LIFETIME_MS } from "./delivery/message_refs.ts";
import { OAUTH_STATE_LIFETIME_MS } from "./auth/oauth_states.ts";
import { HELD_ONCE_MS } from "./notify/notify_outbox.ts";
import { MARK_LIFETIME_MS } from "./delivery/pending_fan_outs.ts";
import { QUEUED_KEEP_MS } from "./notify/notify_jobs.ts";
import { REJECTION_RETENTION_MS } from "./telemetry/rejections.ts";
import { REPLAY_KEEP_MS } from "./delivery/replays.ts";
import { IN_PLACE_LIFETIME_MS } from "./delivery/subject_messages.ts";
import { SESSION_LIFETIME_MS } from "./auth/sessions.ts";
import { UPDATE_MEMORY_MS } from "./auth/telegram_updates.ts";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Marker of the families whose lifetime is SEND_LOG_RETENTION_DAYS. */
const RETENTION = "retention";

/**
 * Lifetime of each expiring family, by the key's first part. Running-instance state
 * (heartbeats, leases, lane paces) gets an hour: its values carry their own deadline, which the
 * app checks, so a copied one is already stale when the copy starts.
 */
const FAMILY_LIFETIMES: ReadonlyMap<string, number | typeof RETENTION> = new Map<
  string,
  number | typeof RETENTION
>([
  ["dedup", DEDUP_WINDOW_MS],
  ["nonces", NONCE_WINDOW_MS],
  ["events", EVENT_RETENTION_MS],
  ["event_chunks", EVENT_RETENTION_MS + ORPHAN_GRACE_MS],
  ["sessions", SESSION_LIFETIME_MS],
  ["oauth_states_used", OAUTH_STATE_LIFETIME_MS],
  ["link_requests", LINK_REQUEST_LIFETIME_MS],
  ["message_refs", MESSAGE_REF_LIFETIME_MS],
  ["group_progress_messages", IN_PLACE_LIFETIME_MS],
  ["progress_messages", IN_PLACE_LIFETIME_MS],
  ["discord_interactions", INTERACTION_MEMORY_MS],
  ["telegram_updates", UPDATE_MEMORY_MS],
  ["invites", INVITE_LIFETIME_MS],
  ["invites_by_group", INVITE_LIFETIME_MS],
  ["invites_version", INVITE_LIFETIME_MS],
  ["jobs_dead", DEAD_JOB_KEEP_MS],
  ["fan_out_pending", MARK_LIFETIME_MS],
  ["rejections", REJECTION_RETENTION_MS],
  ["replays", REPLAY_KEEP_MS],
  ["closed_pulls", CLOSED_PULL_KEEP_MS],
  // a yes and a no are cached for different times: the longer of the two
  ["notify_repo_access", ANSWER_KEEP_MAX_MS],
  ["notify_team_members", ANSWER_KEEP_MAX_MS],
  ["notify_pull_head", PULL_HEAD_KEEP_MS],
  ["notify_queued", QUEUED_KEEP_MS],
  ["notify_held_once", HELD_ONCE_MS],
  ["notify_sent", HELD_ONCE_MS],
  // a digest is kept DIGEST_KEEP_MS after its window closes; a window lasts at most a day
  ["digests", DIGEST_KEEP_MS + DAY_MS],
  ["digest_members", DIGEST_KEEP_MS + DAY_MS],
  ["digest_windows", DIGEST_KEEP_MS + DAY_MS],
  ["send_logs", RETENTION],
  ["send_logs_by_group", RETENTION],
  ["send_logs_by_route", RETENTION],
  ["send_logs_by_status", RETENTION],
  ["send_logs_by_group_status", RETENTION],
  ["send_logs_by_delivery", RETENTION],
  ["unit_bodies", RETENTION],
  ["thread_cards", RETENTION],
  ["thread_heads", RETENTION],
  ["subject_heads", RETENTION],
  ["event_routes", RETENTION],
  ["event_routes_by_delivery", RETENTION],
  ["event_routes_by_repository", RETENTION],
  ["target_held", RETENTION],
  ["delivery_instances", HOUR_MS],
  ["leases", HOUR_MS],
  ["lane_paces", HOUR_MS],
]);

/** Families whose entries' lifetimes {@link CopiedLifetimes.of} decides by key or value. */
const VALUE_DECIDED: ReadonlySet<string> = new Set([
  "token",
  "token-reverse",
  "subject_messages",
  "open_issues",
]);

/** The shortest lifetime a copied entry gets. */
const MIN_LIFETIME_MS = 60_000;

/**
 * The lifetimes of one copy's entries, read in key order. A token record's value says until
 * when it is kept (`keepUntil`); its reverse index (`token-reverse`, listed after every `token`
 * entry) is kept as long as the record it points to. A subject message lives as long as its use
 * keeps it (`subject_messages.ts`: 30 days in place, send log retention for thread cards). In
 * `open_issues` only a closed issue's marker expires (`open_issues.ts`); an open issue does not.
 * Other families use the table above.
 */
export class CopiedLifetimes {
  readonly #now: number;
  readonly #retentionMs: number;
  /** Lifetime of each copied token record, by user id. */
  readonly #tokens = new Map<string, number | undefined>();

  constructor(options: { now: number; retentionMs: number }) {
    this.#now = options.now;
    this.#retentionMs = options.retentionMs;
  }

  /** The `expireIn` (ms) a copied entry gets, or undefined when it does not expire. */
  of(key: readonly unknown[], value: unknown): number | undefined {
    const family = key[0];
    if (typeof family !== "string") return undefined;
    if (family === "token") {
      const lifetime = tokenLifetime(value, this.#now);
      if (typeof key[1] === "string") this.#tokens.set(key[1], lifetime);
      return lifetime;
    }
    if (family === "token-reverse") {
      // an index whose record was not copied is of no use: it goes soon
      return typeof value === "string" && this.#tokens.has(value)
        ? this.#tokens.get(value)
        : MIN_LIFETIME_MS;
    }
    if (family === "subject_messages") {
      return key[2] === "in_place" ? IN_PLACE_LIFETIME_MS : this.#retentionMs;
    }
    if (family === "open_issues") return isClosedIssue(value) ? CLOSED_ISSUE_KEEP_MS : undefined;
    const lifetime = FAMILY_LIFETIMES.get(family);
    if (lifetime === undefined) return undefined;
    return lifetime === RETENTION ? this.#retentionMs : lifetime;
  }
}

/** Whether entries of a family may carry an expiry (used to check the table is complete). */
export function familyExpires(family: string): boolean {
  return VALUE_DECIDED.has(family) || FAMILY_LIFETIMES.has(family);
}

function tokenLifetime(value: unknown, now: number): number | undefined {
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, "keepUntil")) {
    return undefined;
  }
  const keepUntil = (value as { keepUntil: unknown }).keepUntil;
  if (typeof keepUntil !== "number" || !Number.isFinite(keepUntil)) return undefined;
  return Math.max(MIN_LIFETIME_MS, Math.ceil(keepUntil - now));
}
