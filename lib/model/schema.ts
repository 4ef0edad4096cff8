/**
 * Zod schemas of the domain shapes, shared by the admin API (and its OpenAPI
 * document) and the console. Filter trees are checked by `validate.ts` first, so a bad node is
 * reported with its path (`ast.any[2].not.value: invalid regex: …`). Browser-safe.
 */
import { z } from "zod";
import {
  MAX_ROUTE_FILTERS,
  MAX_ROUTES,
  TEMPLATE_BODY_MAX_LENGTH,
  TEMPLATE_TITLE_MAX_LENGTH,
} from "../limits.ts";
import type { TargetRef } from "../target_ref.ts";
import type { Filter, FilterNode, Fragment, Group, Route, Target } from "../types.ts";
import {
  canonicalChatId,
  canonicalSnowflake,
  canonicalTopicId,
  CHAT_ID_ERROR,
  DISCORD_ID_ERROR,
  ID_ERROR,
  ID_PATTERN,
  MAX_NAME_LENGTH,
  MAX_ROLE_IDS,
  MAX_TARGETS,
  snowflakeError,
  TOPIC_ID_ERROR,
} from "./route_rules.ts";
import { quietHoursSchema, routeDigestSchema, routeThreadsSchema } from "./noise_options.ts";
import {
  FIELD_OPS,
  filterLeafCount,
  formatIssuePath,
  validateFilter,
  validateFilterNode,
} from "../routing/validate.ts";
import type { FilterIssue } from "../routing/validate.ts";

const idSchema = z.string().regex(ID_PATTERN, { error: ID_ERROR });
const nameSchema = z.string().min(1, { error: "required" }).max(MAX_NAME_LENGTH, {
  error: `at most ${MAX_NAME_LENGTH} characters`,
});
const positiveIntegerSchema = z.number().int({ error: "must be a positive integer" }).positive({
  error: "must be a positive integer",
});
const requiredOr = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "required" : message;

/**
 * A Discord id (snowflake), stored as a string of digits. A number is accepted too, as hand
 * written targets have it, when it is small enough to have kept all its digits in JSON.
 */
const snowflakeSchema = z.union([z.string(), z.number()], {
  error: requiredOr(DISCORD_ID_ERROR),
}).transform((value, ctx) => {
  const id = canonicalSnowflake(value);
  if (id !== null) return id;
  ctx.addIssue({ code: "custom", input: value, message: snowflakeError(value) });
  return z.NEVER;
}).meta({
  description: "A Discord id: 1-20 digits, not 0, at most 2^64-1 (stored as a string); a " +
    "number is accepted when it is a safe integer",
  anyOf: [
    { type: "string", pattern: "^[0-9]{1,20}$" },
    { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  ],
});

/** A Telegram chat: a numeric id (number or string, stored as a string) or an `@channel` name. */
const chatIdSchema = z.union([z.string(), z.number()], { error: requiredOr(CHAT_ID_ERROR) })
  .transform((value, ctx) => {
    const id = canonicalChatId(value);
    if (id !== null) return id;
    ctx.addIssue({ code: "custom", input: value, message: CHAT_ID_ERROR });
    return z.NEVER;
  }).meta({
    description: "A Telegram chat: a numeric id (up to 16 digits, may be negative, not 0; " +
      "stored as a string) or an @channel name",
    anyOf: [
      { type: "string", pattern: "^(-?[0-9]{1,16}|@[A-Za-z][A-Za-z0-9_]{3,31})$" },
      { type: "integer", minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
    ],
  });

/** A Telegram topic (message thread) id: a positive integer, also given as a numeric string. */
const topicIdSchema = z.union([z.number(), z.string()], {
  error: requiredOr(TOPIC_ID_ERROR),
}).transform((value, ctx) => {
  const id = canonicalTopicId(value);
  if (id !== null) return id;
  ctx.addIssue({ code: "custom", input: value, message: TOPIC_ID_ERROR });
  return z.NEVER;
}).meta({
  description: "A Telegram topic id: a positive integer (stored as a number), also as digits",
  anyOf: [
    { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    { type: "string", pattern: "^[0-9]{1,16}$" },
  ],
});

const eventFilterShape = z.strictObject({
  type: z.literal("event"),
  value: z.union([z.string(), z.array(z.string())]),
});
const fieldFilterShape = z.strictObject({
  type: z.literal("field"),
  path: z.string(),
  op: z.enum(FIELD_OPS as [string, ...string[]]).optional(),
  value: z.unknown().optional(),
  caseSensitive: z.boolean().optional(),
});
const filterShape = z.discriminatedUnion("type", [eventFilterShape, fieldFilterShape]);

const filterNodeShape: z.ZodType<FilterNode> = z.lazy(() =>
  z.union([
    filterShape,
    z.strictObject({ all: z.array(filterNodeShape) }),
    z.strictObject({ any: z.array(filterNodeShape) }),
    z.strictObject({ not: filterNodeShape }),
  ])
) as z.ZodType<FilterNode>;

function reportIssues(issues: FilterIssue[], ctx: z.RefinementCtx) {
  for (const issue of issues) {
    ctx.addIssue({ code: "custom", message: issue.message, path: issue.path, input: undefined });
  }
}

/** A stored leaf filter (an element of `Route.filters`). */
export const filterSchema: z.ZodType<Filter, unknown> = z.preprocess((value, ctx) => {
  reportIssues(validateFilter(value), ctx);
  return value;
}, filterShape) as z.ZodType<Filter, unknown>;

/** A filter tree (`Route.ast`, `Fragment.node`) with its depth and leaf limits. */
export const filterNodeSchema: z.ZodType<FilterNode, unknown> = z.preprocess((value, ctx) => {
  reportIssues(validateFilterNode(value), ctx);
  return value;
}, filterNodeShape);

/**
 * A chat destination: a Discord channel (and thread) or a Telegram chat (and topic). Ids are
 * stored in one canonical form: Discord ids and Telegram chat ids as strings of digits (a
 * number or a string with leading zeros is accepted and normalized), topic ids as numbers.
 */
export const targetSchema: z.ZodType<Target, unknown> = z.discriminatedUnion("platform", [
  z.strictObject({
    platform: z.literal("discord"),
    channelId: snowflakeSchema,
    threadId: snowflakeSchema.optional(),
  }),
  z.strictObject({
    platform: z.literal("telegram"),
    chatId: chatIdSchema,
    topicId: topicIdSchema.optional(),
  }),
], { error: 'must be "discord" or "telegram"' });

/**
 * A channel or chat on a group's allowlist (`lib/target_ref.ts`): a target without thread or
 * topic, in the same canonical form.
 */
export const targetRefSchema: z.ZodType<TargetRef, unknown> = z.discriminatedUnion("platform", [
  z.strictObject({ platform: z.literal("discord"), channelId: snowflakeSchema }),
  z.strictObject({ platform: z.literal("telegram"), chatId: chatIdSchema }),
], { error: 'must be "discord" or "telegram"' });

/**
 * A route's message template (docs/templates.md). Only its lengths are checked here; whether
 * it parses is checked where routes are saved (`lib/admin/routes.ts`), by the template parser.
 */
export const routeTemplateSchema = z.strictObject({
  title: z.string().min(1, { error: "required" }).max(TEMPLATE_TITLE_MAX_LENGTH, {
    error: `at most ${TEMPLATE_TITLE_MAX_LENGTH} characters`,
  }).optional(),
  body: z.string().min(1, { error: "required" }).max(TEMPLATE_BODY_MAX_LENGTH, {
    error: `at most ${TEMPLATE_BODY_MAX_LENGTH} characters`,
  }),
});

/**
 * A route. Only a fallback route may be without a condition: empty `filters` and no `ast`, or
 * an `ast` without a leaf (an empty `all` matches every event).
 */
export const routeSchema: z.ZodType<Route, unknown> = z.strictObject({
  id: idSchema,
  name: nameSchema,
  enabled: z.boolean(),
  groupId: idSchema,
  fallback: z.boolean().optional(),
  filters: z.array(filterSchema).max(MAX_ROUTE_FILTERS, {
    error: `at most ${MAX_ROUTE_FILTERS} filters`,
  }),
  ast: filterNodeSchema.optional(),
  discordRoleIds: z.array(snowflakeSchema).max(MAX_ROLE_IDS).optional(),
  targets: z.array(targetSchema).min(1, { error: "at least one target" }).max(MAX_TARGETS, {
    error: `at most ${MAX_TARGETS} targets`,
  }),
  template: routeTemplateSchema.optional(),
  digest: routeDigestSchema.optional(),
  threads: routeThreadsSchema.optional(),
  quietHours: quietHoursSchema(filterNodeSchema).optional(),
}).superRefine((route, ctx) => {
  if (route.fallback === true) return;
  if (route.ast === undefined && route.filters.length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["filters"],
      message: "only a fallback route may have no filters (add a filter or an ast)",
    });
  } else if (route.ast !== undefined && filterLeafCount(route.ast) === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["ast"],
      message: `route "${route.id}" has no condition; only a fallback route may have none`,
    });
  }
});

/** Routes as stored together: ids unique within a group, at most 200. */
export const routeListSchema: z.ZodType<Route[], unknown> = z.array(routeSchema).max(MAX_ROUTES, {
  error: `at most ${MAX_ROUTES} routes`,
}).superRefine((routes, ctx) => {
  const seen = new Set<string>();
  routes.forEach((route, index) => {
    const key = `${route.groupId}\u0000${route.id}`;
    if (seen.has(key)) {
      ctx.addIssue({
        code: "custom",
        path: [index, "id"],
        message: `duplicate route id "${route.id}" in group "${route.groupId}"`,
      });
    }
    seen.add(key);
  });
});

/** A named filter tree the editor inlines into routes. */
export const fragmentSchema: z.ZodType<Fragment, unknown> = z.strictObject({
  id: idSchema,
  groupId: idSchema,
  name: nameSchema,
  node: filterNodeSchema,
});

const memberSchema = z.strictObject({
  userId: z.string().min(1, { error: "required" }),
  login: z.string().min(1, { error: "required" }),
  role: z.enum(["owner", "admin", "viewer"]),
});

/** A group: at least one owner; optional forge and installation restrictions. */
export const groupSchema: z.ZodType<Group, unknown> = z.strictObject({
  id: idSchema,
  name: nameSchema,
  members: z.array(memberSchema),
  providers: z.array(z.enum(["github", "gitea"])).min(1, { error: "list at least one forge" })
    .optional(),
  installationId: positiveIntegerSchema.optional(),
  owners: z.array(z.string().min(1, { error: "required" })).optional(),
}).superRefine((group, ctx) => {
  if (!group.members.some((member) => member.role === "owner")) {
    ctx.addIssue({ code: "custom", path: ["members"], message: "at least one owner is required" });
  }
  const seen = new Set<string>();
  group.members.forEach((member, index) => {
    if (seen.has(member.userId)) {
      ctx.addIssue({
        code: "custom",
        path: ["members", index, "userId"],
        message: `duplicate member ${member.userId}`,
      });
    }
    seen.add(member.userId);
  });
});

function issueMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.message.includes("received undefined")
        ? "required"
        : `expected ${issue.expected}`;
    case "unrecognized_keys":
      return `unknown key${issue.keys.length > 1 ? "s" : ""} ${
        issue.keys.map((key) => `"${key}"`).join(", ")
      }`;
    case "invalid_value":
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "invalid_union":
      return issue.message === "Invalid input" ? "does not match any allowed shape" : issue.message;
    default:
      return issue.message;
  }
}

/**
 * One clear line for a zod error, naming the field path of the first problem:
 * `routes[3].targets[0].channelId: required`.
 */
export function formatZodError(error: z.ZodError): string {
  const [first] = error.issues;
  if (!first) return "invalid input";
  const where = formatIssuePath(first.path);
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : "";
  return `${where ? `${where}: ` : ""}${issueMessage(first)}${more}`;
}
