/**
 * Zod schemas of a route's noise options (docs/noise.md): `digest`, `threads` and
 * `quietHours`. Browser-safe: the admin API, its OpenAPI document and the console share them.
 */
import { z } from "zod";
import type { FilterNode, RouteDigest, RouteQuietHours } from "../types.ts";
import {
  CLOCK_TIME,
  isTimeZone,
  MAX_DIGEST_THRESHOLD,
  MAX_DIGEST_WINDOW_SECONDS,
  MIN_DIGEST_THRESHOLD,
} from "./noise_rules.ts";

/**
 * `digest`: beyond `threshold` events of the route to one target within the window, one digest.
 * Both are positive integers.
 */
export const routeDigestSchema: z.ZodType<RouteDigest, unknown> = z.strictObject({
  windowSeconds: z.number().int({ error: "must be a whole number of seconds" }).min(1, {
    error: "at least 1 second",
  }).max(MAX_DIGEST_WINDOW_SECONDS, { error: `at most ${MAX_DIGEST_WINDOW_SECONDS} seconds` }),
  threshold: z.number().int({ error: "must be a whole number" }).min(MIN_DIGEST_THRESHOLD, {
    error: `at least ${MIN_DIGEST_THRESHOLD}`,
  }).max(MAX_DIGEST_THRESHOLD, { error: `at most ${MAX_DIGEST_THRESHOLD}` }),
}).meta({
  description: "When more than `threshold` events of the route reach one target within " +
    "`windowSeconds`, the extra ones are gathered into one digest message.",
});

const clockTime = z.string().regex(CLOCK_TIME, { error: "a time of day as HH:MM (00:00-23:59)" })
  .meta({ description: "A local time of day, HH:MM (24-hour clock)." });

/**
 * `quietHours`: from `start` to `end` (local times in `timeZone`; an end before the start
 * means the next day) events are held and posted as one digest when the hours end, except
 * events matching `urgent` (a filter tree), which go at once. Start and end must differ.
 */
export function quietHoursSchema(
  urgent: z.ZodType<FilterNode, unknown>,
): z.ZodType<RouteQuietHours, unknown> {
  return z.strictObject({
    start: clockTime,
    end: clockTime,
    timeZone: z.string().refine(isTimeZone, { error: "an IANA time zone such as Europe/Berlin" })
      .meta({ description: "An IANA time zone name, such as Europe/Berlin or UTC." }),
    urgent: urgent.optional().meta({
      description: "A filter tree: events it matches are sent at once, even in quiet hours.",
    }),
  }).superRefine((value, ctx) => {
    if (value.start === value.end) {
      ctx.addIssue({ code: "custom", path: ["end"], message: "must differ from start" });
    }
  }).meta({
    description: "Hours (in a time zone) during which non-urgent events are held and then " +
      "posted as one digest.",
  }) as z.ZodType<RouteQuietHours, unknown>;
}

/** `threads`: a subject's later events go as replies to its first card. */
export const routeThreadsSchema = z.boolean().meta({
  description: "Later events of a pull request or issue go as replies to its first card " +
    "(a Discord thread, Telegram replies); the card shows the latest state.",
});
