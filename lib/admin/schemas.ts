/**
 * Request and response shapes of the admin API, in zod. The same schemas validate the requests
 * (`endpoint.ts`) and describe them in the OpenAPI document (`openapi.ts`), so the two cannot
 * drift. Domain shapes come from `lib/model/schema.ts`.
 */
import { z } from "zod";
import {
  filterNodeSchema,
  filterSchema,
  fragmentSchema,
  groupSchema,
  routeSchema,
  routeTemplateSchema,
  targetRefSchema,
  targetSchema,
} from "../model/schema.ts";
import { validateEventPattern } from "../routing/event_filter.ts";
import { describeIssues, FIELD_OPS, validateFilter } from "../routing/validate.ts";
import { ID_PATTERN } from "../ids.ts";
import {
  FILTER_VALUE_MAX_LENGTH,
  MAX_ALLOWED_TARGETS,
  MAX_DELIVERY_ID_LENGTH,
  PATH_MAX_LENGTH,
} from "../limits.ts";
import { AUDIT_ACTIONS } from "../store/telemetry/audit.ts";
import { MAX_SECRET_GRACE_MS } from "../store/config/group_secrets.ts";
import type { FieldOp } from "../types.ts";
import { searchPayloadFilter } from "./event_search_filter.ts";

/** A route, group or fragment id. */
export const idSchema = z.string().regex(ID_PATTERN, {
  error: "must be 1-64 lower-case letters, digits, _ or -, starting with a letter or digit",
});

const roleSchema = z.enum(["owner", "admin", "viewer"]);
const actorSchema = z.object({ userId: z.string(), login: z.string() });
const timeSchema = z.number().int().describe("Unix milliseconds");

/** Every error answer. */
export const errorSchema = z.object({ error: z.string() });

/** `{ ok: true }`. */
export const okSchema = z.object({ ok: z.literal(true) });

/** A replacement's answer. */
export const okCountSchema = z.object({ ok: z.literal(true), count: z.number().int() });

/** A replacement's answer whose `count` is described as `counted` (its own schema, so its own name). */
function replacedSchema(counted: string) {
  return z.object({ ok: z.literal(true), count: z.number().int().describe(counted) });
}

/** `PUT /admin/api/groups`: how many groups the submitted list held. */
export const groupsReplacedSchema = replacedSchema("groups in the submitted list");

/** `PUT /admin/api/groups/:id/fragments`: how many fragments the group has now. */
export const fragmentsReplacedSchema = replacedSchema("fragments the group has now");

/** `PUT /admin/api/groups/:id/targets`: how many targets the group's list holds now. */
export const targetsReplacedSchema = replacedSchema("targets on the group's list now");

/** `GET /admin/api/me`. */
export const meSchema = z.object({
  user: actorSchema,
  superAdmin: z.boolean(),
  groups: z.array(z.object({ id: z.string(), name: z.string(), role: roleSchema })),
  debugMode: z.boolean(),
});

/** The signed-in person's own settings (`/admin/api/me/preferences`). */
export const preferencesSchema = z.strictObject({
  skipOwnActions: z.boolean().describe(
    "events this person caused on GitHub are not sent to the Telegram private chats linked to " +
      "their account",
  ),
});

/** `PUT /admin/api/routes` and `PUT /admin/api/groups/:id/routes`. */
export const routesBodySchema = z.strictObject({ routes: z.array(routeSchema) });

/** Routes as listed. */
export const routesSchema = z.object({ routes: z.array(routeSchema) });

/** `PUT /admin/api/groups`. */
export const groupsBodySchema = z.strictObject({ groups: z.array(groupSchema) });

/** Groups as listed, with the caller's role in each (a super admin acts as owner). */
export const groupsSchema = z.object({
  groups: z.array(groupSchema),
  roles: z.record(z.string(), roleSchema),
});

/** A group created or replaced on its own (`POST /admin/api/groups`, `PUT …/groups/:id`). */
export const groupWrittenSchema = z.object({ ok: z.literal(true), id: z.string() });

/** `PUT /admin/api/groups/:id/fragments`. */
export const fragmentsBodySchema = z.strictObject({ fragments: z.array(fragmentSchema) });

/** Fragments as listed. */
export const fragmentsSchema = z.object({ fragments: z.array(fragmentSchema) });

/** `PUT /admin/api/groups/:id/targets`: channels and chats (no threads or topics). */
export const allowedTargetsBodySchema = z.strictObject({
  targets: z.array(targetRefSchema).max(MAX_ALLOWED_TARGETS, {
    error: `at most ${MAX_ALLOWED_TARGETS} targets per group`,
  }),
});

/** A group's allowed targets, and the targets of its routes it may not post into. */
export const allowedTargetsSchema = z.object({
  targets: z.array(z.object({
    target: targetRefSchema,
    allowedAt: timeSchema,
    allowedBy: actorSchema,
    via: z.enum(["admin", "routes", "claim", "upgrade"]).describe(
      "admin: set by a super admin; routes: named in a super admin's route save; claim: " +
        "claimed from inside the channel or chat; upgrade: used by a route stored before " +
        "target ownership existed",
    ),
  })),
  refused: z.array(z.object({
    routeId: z.string(),
    target: targetSchema,
    reason: z.string(),
  })).describe("targets of the group's routes that are not allowed (never sent to), and why"),
});

/** `PUT /admin/api/groups/:id/rename`. */
export const renameBodySchema = z.strictObject({
  newId: idSchema,
  name: z.string().min(1, { error: "required" }).max(100, { error: "at most 100 characters" })
    .optional(),
});

/** A rename's answer. */
export const renamedSchema = z.object({ ok: z.literal(true), id: z.string() });

/** `POST /admin/api/groups/:id/invites`. */
export const inviteBodySchema = z.strictObject({ role: z.enum(["admin", "viewer"]) });

/** A new invite. */
export const createdInviteSchema = z.object({
  token: z.string(),
  url: z.string(),
  role: z.enum(["admin", "viewer"]),
  expiresAt: timeSchema,
});

/** Pending invites of a group. */
export const invitesSchema = z.object({
  invites: z.array(z.object({
    token: z.string(),
    url: z.string(),
    role: z.enum(["admin", "viewer"]),
    createdBy: actorSchema,
    createdAt: timeSchema,
    expiresAt: timeSchema,
  })),
});

/** A group's ingress. */
export const webhookInfoSchema = z.object({
  url: z.string(),
  enabled: z.boolean(),
  createdAt: timeSchema.optional(),
  lastUsedAt: timeSchema.optional().describe("when the current secret last verified a webhook"),
  previous: z.object({
    createdAt: timeSchema,
    expiresAt: timeSchema.describe("the replaced secret verifies webhooks until then"),
    lastUsedAt: timeSchema.optional(),
  }).optional().describe("the replaced secret, while its grace period lasts"),
});

/** How long the replaced secret keeps working after a regenerate. */
export const webhookRegenerateSchema = z.object({
  graceSeconds: z.number().int().min(0, { error: "must be 0..604800" }).max(
    MAX_SECRET_GRACE_MS / 1000,
    { error: "must be 0..604800" },
  ).optional().describe(
    "how long the replaced secret keeps working, in seconds (0..604800, default 86400)",
  ),
}).strict();

/** A freshly generated group secret (shown this once). */
export const webhookSecretSchema = z.object({
  secret: z.string(),
  url: z.string(),
  previousExpiresAt: timeSchema.optional().describe("until when the replaced secret works"),
});

const statusSchema = z.enum(["ok", "failed", "retrying", "dead"]);
const platformSchema = z.enum(["discord", "telegram"]);
const limitSchema = z.coerce.number().int().min(1, { error: "must be 1..200" }).max(200, {
  error: "must be 1..200",
}).optional();
/** A time given as Unix milliseconds or ISO-8601, read as Unix milliseconds. */
export const instantSchema = z.string().transform((value, ctx) => {
  const at = parseInstant(value);
  if (at !== null) return at;
  ctx.addIssue({ code: "custom", message: "must be Unix milliseconds or an ISO-8601 time" });
  return z.NEVER;
}).describe("Unix milliseconds or an ISO-8601 time");

/** Reads a time given as Unix milliseconds or ISO-8601; null when it is neither. */
function parseInstant(value: string): number | null {
  if (/^\d{1,15}$/.test(value)) return Number(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : at;
}

/** `GET /admin/api/logs` query. */
export const logsQuerySchema = z.object({
  groupId: idSchema.optional(),
  routeId: idSchema.optional(),
  status: statusSchema.optional(),
  platform: platformSchema.optional(),
  event: z.string().min(1).max(100).optional().describe("event kind, or kind.action"),
  deliveryId: z.string().min(1).max(200).optional(),
  q: z.string().trim().min(1).max(100).optional().describe(
    "text the log contains (any case): delivery, event or log id, event, repository, group, " +
      "route, target, message id or error",
  ),
  from: instantSchema.optional(),
  to: instantSchema.optional(),
  cursor: z.string().min(1).max(200).optional().describe(
    "the cursor of the previous page; any other value answers 400 Invalid cursor",
  ),
  limit: limitSchema,
});

/** One send log. */
export const sendLogSchema = z.object({
  id: z.string(),
  deliveryId: z.string(),
  eventId: z.string(),
  event: z.string(),
  action: z.string().optional(),
  repository: z.string().optional().describe("owner/name, when the event's payload names one"),
  provider: z.enum(["github", "gitea", "custom"]),
  groupId: z.string(),
  routeId: z.string(),
  platform: platformSchema,
  target: targetSchema,
  status: statusSchema,
  attempts: z.number().int(),
  httpStatus: z.number().int().optional(),
  error: z.string().optional(),
  templateError: z.string().optional().describe(
    "why the route's message template failed; the built-in message was sent instead",
  ),
  messageId: z.string().optional(),
  edited: z.boolean().optional().describe("true when the unit edited a message in place"),
  editedMessageId: z.string().optional().describe(
    "the message edited in place (a card whose short notice is messageId, or messageId itself)",
  ),
  skipped: z.string().optional().describe(
    "why nothing was sent although the unit is ok: an event older than the state its " +
      "message already shows (a late workflow run event)",
  ),
  digestId: z.string().optional().describe(
    "the digest the event was gathered into instead of its own message (docs/noise.md); " +
      "messageId is then the digest's message",
  ),
  nextAttemptAt: timeSchema.optional(),
  createdAt: timeSchema,
  updatedAt: timeSchema,
});

/** A page of send logs, newest first. */
export const sendLogPageSchema = z.object({
  items: z.array(sendLogSchema),
  cursor: z.string().optional(),
});

/** All send logs of one delivery. */
export const deliverySchema = z.object({ deliveryId: z.string(), items: z.array(sendLogSchema) });

/** A redelivery's answer. */
export const redeliveredSchema = z.object({
  ok: z.literal(true),
  requeued: z.array(z.string()).describe("ids of the send logs queued again"),
  expired: z.array(z.string()).describe("failed units whose message is past retention"),
});

/** An event accepted again through the current routes. */
export const resentSchema = z.object({
  ok: z.literal(true),
  eventId: z.string().describe("the id of the new event"),
});

/** `GET /admin/api/audit` query. */
export const auditQuerySchema = z.object({
  groupId: idSchema.optional(),
  action: z.string().min(1).max(100).optional().describe("exact action, or a prefix ending in ."),
  actor: z.string().min(1).max(100).optional().describe("user id or login"),
  from: instantSchema.optional(),
  to: instantSchema.optional(),
  cursor: z.string().min(1).max(200).optional().describe(
    "the cursor of the previous page; any other value answers 400 Invalid cursor",
  ),
  limit: limitSchema,
});

/** One audit entry. */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: timeSchema,
  actor: actorSchema,
  action: z.enum(AUDIT_ACTIONS),
  groupId: z.string().optional(),
  target: z.string().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
});

/** A page of audit entries, newest first. */
export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  cursor: z.string().optional(),
});

/** `GET /admin/api/metrics` query. */
export const metricsQuerySchema = z.object({
  groupId: idSchema.optional(),
  days: z.coerce.number().int().min(1, { error: "must be 1..366" }).max(366, {
    error: "must be 1..366",
  }).optional(),
});

const countsSchema = z.object({
  total: z.number().int(),
  ok: z.number().int(),
  failed: z.number().int(),
  dead: z.number().int(),
  retrying: z.number().int(),
});

const latencySchema = z.object({
  count: z.number().int().describe("units that succeeded"),
  p50Ms: z.number().int().optional().describe("median ms from acceptance to the platform's answer"),
  p95Ms: z.number().int().optional().describe("95th percentile, ms"),
});

/** Delivery statistics. */
export const metricsSchema = z.object({
  from: z.string().describe("first UTC day, YYYY-MM-DD"),
  to: z.string().describe("last UTC day, YYYY-MM-DD"),
  totals: countsSchema,
  failureRate: z.number(),
  byPlatform: z.record(z.string(), countsSchema),
  byEvent: z.record(z.string(), countsSchema),
  byStatus: z.record(statusSchema, z.number().int()),
  byDay: z.array(countsSchema.extend({ day: z.string() })),
  recentFailures: z.array(sendLogSchema),
  latency: latencySchema,
  latencyByDay: z.array(latencySchema.extend({ day: z.string() })),
});

/** `POST /admin/api/test-match`: a tree (`node`) or a flat list (`filters`), and an event. */
export const testMatchBodySchema = z.strictObject({
  node: filterNodeSchema.optional(),
  filters: z.array(filterSchema).max(64, { error: "at most 64 filters" }).optional(),
  event: z.string().min(1).max(200).optional().describe(
    "event kind, or kind.action (default: custom); without an action the payload's is used",
  ),
  provider: z.enum(["github", "gitea", "custom"]).optional().describe(
    "the sender whose naming applies (default: custom for the custom kind, else github)",
  ),
  payload: z.record(z.string(), z.unknown()),
}).superRefine((body, ctx) => {
  if ((body.node === undefined) === (body.filters === undefined)) {
    ctx.addIssue({ code: "custom", path: ["node"], message: "give either node or filters" });
  }
});

/** One node of a match explanation (it mirrors the filter tree). */
const explanationSchema = z.looseObject({
  kind: z.enum(["all", "any", "not", "event", "field"]),
  matched: z.boolean(),
  reason: z.string(),
});

/** A filter trial's answer. */
export const testMatchSchema = z.object({ matched: z.boolean(), explanation: explanationSchema });

/** The operators of an event search's payload filter: those of field filters but `in`. */
export const SEARCH_PAYLOAD_OPS = FIELD_OPS.filter((op) => op !== "in") as [
  Exclude<FieldOp, "in">,
  ...Exclude<FieldOp, "in">[],
];

/** `GET /admin/api/groups/{id}/events` query: a search of the group's events. */
export const eventsQuerySchema = z.object({
  event: z.string().min(1).max(100).optional().describe(
    "event kind, or kind.action; * is a wildcard (pull_request.*), as in route filters",
  ),
  outcome: z.enum(["fired", "none"]).optional().describe(
    "only events that fired at least one route (fired), or none (none)",
  ),
  repository: z.string().min(1).max(200).optional().describe(
    "owner/name, without regard to case",
  ),
  sender: z.string().min(1).max(100).optional().describe(
    "the sender's login, without regard to case",
  ),
  text: z.string().min(1).max(200).optional().describe(
    "text the event's title contains (plain text, without regard to case)",
  ),
  deliveryId: z.string().min(1).max(MAX_DELIVERY_ID_LENGTH).optional().describe(
    "the sender's delivery id (X-GitHub-Delivery …), exactly",
  ),
  path: z.string().min(1).max(PATH_MAX_LENGTH).optional().describe(
    "JSONPath into the stored payload, as in route filters; the event matches when op holds",
  ),
  op: z.enum(SEARCH_PAYLOAD_OPS).optional().describe(
    "the payload filter's operator (default: eq with a value, exists without)",
  ),
  value: z.string().max(FILTER_VALUE_MAX_LENGTH).optional().describe(
    "the payload filter's comparison value (for exists: true or false)",
  ),
  cursor: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, { error: "must be an event id" })
    .optional(),
  limit: limitSchema,
}).superRefine((query, ctx) => {
  const eventProblem = query.event === undefined ? null : validateEventPattern(query.event);
  if (eventProblem) ctx.addIssue({ code: "custom", path: ["event"], message: eventProblem });
  if (query.path === undefined) {
    if (query.op !== undefined || query.value !== undefined) {
      ctx.addIssue({ code: "custom", path: ["path"], message: "op and value need a path" });
    }
    return;
  }
  const issues = validateFilter(searchPayloadFilter(query.path, query.op, query.value));
  if (issues.length > 0) {
    ctx.addIssue({ code: "custom", path: [], message: describeIssues(issues) });
  }
});

/** What one event did in a group. */
const groupEventSchema = z.object({
  id: z.string().describe("the event id"),
  deliveryId: z.string().optional(),
  provider: z.enum(["github", "gitea", "custom"]),
  kind: z.string(),
  action: z.string().optional(),
  repository: z.string().optional().describe("owner/name, when the payload names one"),
  sender: z.string().optional().describe("the login of the payload's sender"),
  title: z.string().optional().describe("the event in words: its chat message's title"),
  receivedAt: timeSchema,
  routeIds: z.array(z.string()).describe("the routes of the group that fired, in stored order"),
  routesFired: z.number().int(),
});

/** How far one page of an event search looked. */
const searchReachSchema = z.object({
  events: z.number().int().describe("event records examined"),
  payloads: z.number().int().describe("payloads read for the payload filter"),
  payloadBytes: z.number().int().describe("bytes of those payloads, as received"),
  skipped: z.number().int().describe(
    "payloads past retention, unreadable or over the evaluation budget (not matched)",
  ),
  oldest: timeSchema.optional().describe("when the oldest examined event arrived"),
  partial: z.boolean().describe(
    "the page stopped at its limits before it was full; cursor continues the search",
  ),
});

/** A page of a group's events, newest first. */
export const groupEventPageSchema = z.object({
  items: z.array(groupEventSchema),
  cursor: z.string().optional().describe("continues the search below the last event examined"),
  reach: searchReachSchema,
});

/** One event of a group, explained against each of the group's routes. */
export const groupEventDetailSchema = z.object({
  event: groupEventSchema,
  payload: z.record(z.string(), z.unknown()).nullable().describe(
    "the payload as received; null once it is past retention",
  ),
  routes: z.array(z.object({
    id: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    fallback: z.boolean(),
    fired: z.boolean().describe("whether the route fired when the event arrived"),
    matched: z.boolean().describe("whether the route's filters match the event now"),
    verdict: z.string().describe("the outcome in words"),
    explanation: explanationSchema.optional(),
    error: z.string().optional().describe("why the filters could not be evaluated"),
    deleted: z.literal(true).optional().describe("the route fired but was deleted since"),
  })),
  logs: z.array(sendLogSchema).describe("the send logs of this event in this group"),
});

/** `POST /admin/api/preview`: an event to render as chat messages. */
export const previewBodySchema = z.strictObject({
  event: z.string().min(1).max(200).optional().describe(
    "event kind, or kind.action (default: custom); without an action the payload's is used",
  ),
  provider: z.enum(["github", "gitea", "custom"]).optional().describe(
    "the sender whose naming applies (default: custom for the custom kind, else github)",
  ),
  payload: z.record(z.string(), z.unknown()),
  discordRoleIds: z.array(z.string().regex(/^\d{1,20}$/)).max(100).optional().describe(
    "role ids the Discord message mentions",
  ),
  template: routeTemplateSchema.optional().describe(
    "a route's message template to render the event with (docs/templates.md)",
  ),
});

/** The messages an event becomes; null for a kind that is never sent. */
export const previewSchema = z.object({
  kind: z.string(),
  action: z.string().optional(),
  discord: z.looseObject({ embeds: z.array(z.looseObject({})) }).nullable().describe(
    "Discord's Create Message body",
  ),
  telegram: z.looseObject({ text: z.string(), parse_mode: z.literal("HTML") }).nullable()
    .describe("Telegram's sendMessage text parameters"),
  templateError: z.string().optional().describe(
    "why the template does not parse or could not be rendered; the messages are then the " +
      "built-in ones, as delivery would send them",
  ),
});

/** `POST /admin/api/groups/:id/test-event`: a bundled sample, or a recent event of the group. */
export const testEventBodySchema = z.union([
  z.strictObject({
    sample: z.string().min(1).max(100).describe("a bundled sample's id, e.g. pull_request.opened"),
  }),
  z.strictObject({
    eventId: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, { error: "must be an event id" })
      .describe("a recent event of the group, sent again as it arrived"),
  }),
]);

/** The ingress's answer to a test event. */
export const testEventSchema = z.object({
  status: z.number().int().describe("the ingress's status: 200 when the event was stored"),
  accepted: z.boolean(),
  duplicate: z.boolean().optional(),
  error: z.string().optional().describe("the ingress's error, when it refused the event"),
  hint: z.string().optional().describe("what to change, when it refused the event"),
  deliveryId: z.string().describe("the delivery id the event was sent with"),
  provider: z.enum(["github", "gitea", "custom"]),
  sentAt: timeSchema,
});

/** One rejected webhook request. */
const rejectionSchema = z.object({
  id: z.string(),
  at: timeSchema,
  reason: z.string().describe(
    "unknown_group, too_large, timeout, unreadable, missing_headers, no_secret, bad_signature, " +
      "bad_delivery_id, replayed_nonce, form_without_payload, not_json or unknown_event",
  ),
  status: z.number().int().describe("the status the sender was answered"),
  words: z.string().describe("the reason in words"),
  fix: z.string().describe("what to change"),
  provider: z.string().describe("the sender the headers suggest: github, gitea, custom, unknown"),
  address: z.string().optional().describe("the connection's address"),
  forwardedFor: z.string().optional().describe("the first X-Forwarded-For entry, unverified"),
  userAgent: z.string().optional(),
  contentType: z.string().optional(),
  event: z.string().optional().describe("the event header's value"),
  deliveryId: z.string().optional(),
  unknownGroup: z.string().optional().describe("the group id of an address naming no group"),
});

/** A rejected list with its bounds. */
export const rejectionListSchema = z.object({
  items: z.array(rejectionSchema).describe("newest first"),
  keptAtMost: z.number().int().describe("records kept per list; older ones are dropped"),
  keptDays: z.number().int().describe("days each record is kept"),
  perMinute: z.number().int().describe("records written per list and minute (per instance)"),
});

/** One problem of a route (`lib/admin/route_problems.ts`). */
const routeProblemSchema = z.object({
  kind: z.enum(["filter_invalid", "platform_not_configured", "target_paused", "not_firing"]),
  routeId: z.string(),
  routeName: z.string(),
  target: targetSchema.optional().describe("the target it is about, for the target kinds"),
  targetKey: z.string().optional().describe(
    "target_paused: the key Resume and Discard take (`/target-health/resume`)",
  ),
  held: z.number().int().optional().describe("target_paused: messages held (counted to 1000)"),
  message: z.string().describe("what is wrong, in words"),
  fix: z.string().describe("what to change"),
});

/** A target key as health records spell it: `discord:<id>`, `telegram:<chat>[/<topic>]`. */
const TARGET_KEY = /^(discord:\d{1,20}|telegram:(-?\d{1,20}|@[A-Za-z0-9_]{4,32})(\/\d{1,10})?)$/;

/** Which paused target of a group (`lib/admin/target_health.ts`). */
export const targetHealthBodySchema = z.object({
  target: z.string().regex(TARGET_KEY, {
    error: "must be discord:<channel or thread id> or telegram:<chat id>[/<topic id>], " +
      "like discord:123 or telegram:-100123/7",
  }).describe(
    "the target's key: discord:<channel or thread id>, telegram:<chat id>[/<topic id>]",
  ),
});

/** What a resume did. */
export const targetResumedSchema = z.object({
  resumed: z.number().int().describe("held messages put back in the target's lane, in order"),
});

/** What a discard did. */
export const targetDiscardedSchema = z.object({
  discarded: z.number().int().describe("held messages now failed, each log saying so"),
});

/** The problems of a group's routes. */
export const routeProblemListSchema = z.object({
  problems: z.array(routeProblemSchema).describe("most urgent kind first"),
});
