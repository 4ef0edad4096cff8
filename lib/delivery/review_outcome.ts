/**
 * The outcome of a reviewed deployment on its review card. A `deployment_review` card
 * (`requested`) is recorded with its rendered body under a key of its run and environment; when
 * a `deployment_status` of that run and environment finishes (success, failure, error), the
 * unit that delivers it edits the card in the same place to say so ("Deployed to <environment>
 * ✓ at <time>", "Deployment to <environment> failed at <time>"), its buttons giving way to its
 * link. The edit goes through the unit's chat calls, so the rate limiter paces it.
 */
import type { ForgeEvent } from "../types.ts";
import type { Platform } from "../types.ts";
import { escapeHtml } from "../format/text.ts";
import { record } from "../format/read.ts";

/** Longest rendered card kept for the outcome edit (JSON characters). */
export const MAX_KEPT_BODY = 16_000;

/** Longest environment name (GitHub's limit). */
const MAX_ENVIRONMENT = 255;

/** Telegram's longest message text. */
const MAX_TELEGRAM_TEXT = 4096;

/** Discord's link button style. */
const LINK_STYLE = 5;

/** Deployment states that finish a deployment, and whether it went out. */
const FINISHED: ReadonlyMap<string, boolean> = new Map([
  ["success", true],
  ["failure", false],
  ["error", false],
]);

function runIdOf(payload: Record<string, unknown>): string | null {
  const id = record(payload.workflow_run)?.id;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? String(id) : null;
}

function environmentName(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_ENVIRONMENT
    ? value
    : null;
}

/** The run and environment a review card is about: `[runId, environment]`, or null. */
export function reviewCardOf(event: ForgeEvent): [string, string] | null {
  if (event.provider !== "github" || event.kind !== "deployment_review") return null;
  if (event.action !== "requested") return null;
  const runId = runIdOf(event.payload);
  const environment = environmentName(
    event.payload.environment ?? record(event.payload.workflow_job_run)?.environment,
  );
  return runId && environment ? [runId, environment] : null;
}

/** "2026-11-27 09:30 UTC", or null when `value` is not a time. */
function timeText(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 40) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return null;
  return `${new Date(time).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * The review card a finished deployment status answers, and the line saying how it went:
 * `{ card: [runId, environment], line }`, or null when the status did not finish a
 * deployment of a workflow run.
 */
export function reviewOutcomeOf(
  event: ForgeEvent,
): { card: [string, string]; line: string } | null {
  if (event.provider !== "github" || event.kind !== "deployment_status") return null;
  const status = record(event.payload.deployment_status);
  const state = status?.state;
  const deployed = typeof state === "string" ? FINISHED.get(state) : undefined;
  const runId = runIdOf(event.payload);
  const environment = environmentName(
    status?.environment ?? record(event.payload.deployment)?.environment,
  );
  if (deployed === undefined || !runId || !environment) return null;
  const time = timeText(status?.updated_at ?? status?.created_at);
  const at = time ? ` at ${time}` : "";
  const line = deployed
    ? `Deployed to ${environment} ✓${at}`
    : `Deployment to ${environment} failed${at}`;
  return { card: [runId, environment], line };
}

/** Only the link buttons of Discord rows (a finished deployment has nothing to press). */
function discordLinks(components: unknown): unknown[] {
  if (!Array.isArray(components)) return [];
  return components.flatMap((row) => {
    const buttons = record(row)?.components;
    if (!Array.isArray(buttons)) return [];
    const links = buttons.filter((button) => record(button)?.style === LINK_STYLE);
    return links.length > 0 ? [{ ...record(row), components: links }] : [];
  });
}

/** Only the link buttons of a Telegram keyboard. */
function telegramLinks(markup: unknown): { inline_keyboard: unknown[][] } {
  const rows = record(markup)?.inline_keyboard;
  if (!Array.isArray(rows)) return { inline_keyboard: [] };
  const kept = rows.map((row) =>
    Array.isArray(row) ? row.filter((button) => typeof record(button)?.url === "string") : []
  ).filter((row) => row.length > 0);
  return { inline_keyboard: kept };
}

/**
 * The review card `kept` (as it was posted) with `line` added after the review's `decision`
 * (who approved or rejected, when known): Discord's message text, or a last paragraph of
 * Telegram's text; only its link buttons stay. Null when `kept` is not a
 * card body of `platform`.
 */
export function cardWithOutcome(
  platform: Platform,
  kept: unknown,
  line: string,
  decision?: string,
): unknown {
  const body = record(kept);
  if (!body) return null;
  if (platform === "discord") {
    const content = decision ? `${decision}\n${line}` : line;
    return { ...body, content, components: discordLinks(body.components) };
  }
  if (typeof body.text !== "string") return null;
  const decided = decision ? `${escapeHtml(decision)}\n` : "";
  const added = `${body.text}\n\n${decided}<b>${escapeHtml(line)}</b>`;
  return {
    ...body,
    text: added.length <= MAX_TELEGRAM_TEXT ? added : escapeHtml(line),
    reply_markup: telegramLinks(body.reply_markup),
  };
}
