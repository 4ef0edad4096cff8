/** The schemas of the bulk replay endpoints (`replays.ts`): filter, start, state and answers. */
import { z } from "zod";
import { idSchema, instantSchema } from "./schemas.ts";

const TARGET = /^(discord:[0-9]{1,20}|telegram:(-?[0-9]{1,20}|@[A-Za-z0-9_]{1,64}))$/;

const targetFilterSchema = z.string().regex(TARGET, {
  error: "must be discord:<channel id> or telegram:<chat id>",
}).transform((value) => value.toLowerCase()).describe(
  "a channel or chat, with its threads or topics: discord:<channel id> or telegram:<chat id>",
);

const statusFilterSchema = z.enum(["undelivered", "failed", "dead", "ok", "any"]).describe(
  "which outcomes: undelivered (failed and dead, the default), failed, dead, ok or any",
);

const modeSchema = z.enum(["messages", "routes"]).describe(
  "messages: the same stored messages sent again (default); routes: the events accepted " +
    "again through the current routes",
);

const timeSchema = z.union([z.number().int().min(0), instantSchema]);

/** The filter fields, as a query or a body gives them. */
const filterFields = {
  routeId: idSchema.optional(),
  target: targetFilterSchema.optional(),
  status: statusFilterSchema.optional(),
  event: z.string().min(1).max(100).optional().describe("event kind, or kind.action"),
  mode: modeSchema.optional(),
};

/** `GET /admin/api/groups/:id/replays/preview` query. */
export const replayPreviewQuerySchema = z.strictObject({
  ...filterFields,
  from: instantSchema.optional(),
  to: instantSchema.optional(),
  includeDelivered: z.enum(["true", "false"]).optional().transform((value) => value === "true"),
});

/** `POST /admin/api/groups/:id/replays` body. */
export const replayStartSchema = z.strictObject({
  ...filterFields,
  from: timeSchema.optional(),
  to: timeSchema.optional(),
  includeDelivered: z.boolean().optional().describe(
    "send again what was delivered too (routes mode only)",
  ),
});

/** `POST /admin/api/groups/:id/replays/:replayId/state` body. */
export const replayStateSchema = z.strictObject({
  action: z.enum(["pause", "resume", "cancel"]),
});

/** What a replay would do. */
export const replayPreviewSchema = z.object({
  selected: z.number().int().describe("send logs the filter selects"),
  events: z.number().int().describe("distinct events among them"),
  toSend: z.number().int().describe("messages (messages mode) or events (routes mode) to send"),
  delivered: z.number().int().describe("left alone: delivered"),
  sending: z.number().int().describe("left alone: still being sent"),
  limit: z.number().int().describe("most send logs one replay may select"),
});

/** One replay and its progress. */
export const replaySchema = z.object({
  id: z.string(),
  groupId: z.string(),
  filter: z.object({
    routeId: z.string().optional(),
    target: z.string().optional(),
    status: statusFilterSchema,
    event: z.string().optional(),
    from: z.number().int().optional(),
    to: z.number().int(),
  }),
  mode: modeSchema,
  includeDelivered: z.boolean(),
  state: z.enum(["running", "paused", "cancelled", "done"]),
  total: z.number().int(),
  walked: z.number().int(),
  sent: z.number().int(),
  skipped: z.number().int(),
  expired: z.number().int(),
  createdBy: z.object({ userId: z.string(), login: z.string() }),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});

/** A group's replays, newest first. */
export const replaysSchema = z.object({ items: z.array(replaySchema) });
