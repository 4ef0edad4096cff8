/**
 * The route editor's noise control form (docs/noise.md): a route's `digest`, `threads` and
 * `quietHours` as the form holds them, checked with the API's own schemas, and applied back to
 * a route for saving. A quiet-hours `urgent` filter is kept as stored (edited through the
 * API). Browser-safe.
 */
import {
  CLOCK_TIME,
  isTimeZone,
  MAX_DIGEST_THRESHOLD,
  MAX_DIGEST_WINDOW_SECONDS,
  MIN_DIGEST_THRESHOLD,
} from "../model/noise_rules.ts";
import type { FilterNode, Route } from "../types.ts";

/** The form's state. */
export interface NoiseForm {
  digest: boolean;
  windowSeconds: string;
  threshold: string;
  threads: boolean;
  quiet: boolean;
  start: string;
  end: string;
  timeZone: string;
  /** The stored `urgent` filter, kept as it is. */
  urgent?: FilterNode;
}

/** The noise options of a route. */
type NoiseOptions = Pick<Route, "digest" | "threads" | "quietHours">;

/** A whole number within bounds, as typed; null otherwise. */
function wholeNumber(text: string, min: number, max: number): number | null {
  const value = Number(text.trim() || NaN);
  return Number.isInteger(value) && value >= min && value <= max ? value : null;
}

/** The form for a route (defaults for the options it does not have). */
export function noiseFormOf(route: Route | undefined): NoiseForm {
  const quiet = route?.quietHours;
  return {
    digest: route?.digest !== undefined,
    windowSeconds: String(route?.digest?.windowSeconds ?? 300),
    threshold: String(route?.digest?.threshold ?? 10),
    threads: route?.threads === true,
    quiet: quiet !== undefined,
    start: quiet?.start ?? "22:00",
    end: quiet?.end ?? "07:00",
    timeZone: quiet?.timeZone ?? "UTC",
    ...(quiet?.urgent === undefined ? {} : { urgent: quiet.urgent }),
  };
}

/** The options the form describes, and its problems by field (`digest`, `quietHours.end` …). */
export function noiseOptionsOf(
  form: NoiseForm,
): { options: NoiseOptions; problems: Map<string, string> } {
  const problems = new Map<string, string>();
  const options: NoiseOptions = {};
  if (form.digest) {
    const windowSeconds = wholeNumber(form.windowSeconds, 1, MAX_DIGEST_WINDOW_SECONDS);
    const threshold = wholeNumber(form.threshold, MIN_DIGEST_THRESHOLD, MAX_DIGEST_THRESHOLD);
    if (windowSeconds === null) {
      problems.set("digest.windowSeconds", `1-${MAX_DIGEST_WINDOW_SECONDS} whole seconds`);
    }
    if (threshold === null) {
      problems.set(
        "digest.threshold",
        `a whole number, ${MIN_DIGEST_THRESHOLD}-${MAX_DIGEST_THRESHOLD}`,
      );
    }
    if (windowSeconds !== null && threshold !== null) {
      options.digest = { windowSeconds, threshold };
    }
  }
  if (form.threads) options.threads = true;
  if (form.quiet) {
    if (!CLOCK_TIME.test(form.start)) problems.set("quietHours.start", "a time as HH:MM");
    if (!CLOCK_TIME.test(form.end)) problems.set("quietHours.end", "a time as HH:MM");
    else if (form.end === form.start) problems.set("quietHours.end", "must differ from start");
    const timeZone = form.timeZone.trim();
    if (!isTimeZone(timeZone)) {
      problems.set("quietHours.timeZone", "an IANA time zone such as Europe/Berlin");
    }
    options.quietHours = {
      start: form.start,
      end: form.end,
      timeZone,
      ...(form.urgent === undefined ? {} : { urgent: form.urgent }),
    };
  }
  return { options, problems };
}

/** The route with the form's options set, and the ones it leaves off removed. */
export function withNoiseOptions(route: Route, options: NoiseOptions): Route {
  const { digest: _digest, threads: _threads, quietHours: _quiet, ...rest } = route;
  return { ...rest, ...options };
}
