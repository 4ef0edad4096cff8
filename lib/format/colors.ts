/** The message colour palette, as 24-bit RGB numbers, and the mappings every formatter shares. */
import { ownValue } from "../own_value.ts";

/** Named colours; each has a Telegram status dot (Telegram messages have no colour). */
export const COLORS = {
  green: 0x2da44e,
  red: 0xcf222e,
  purple: 0x8250df,
  grey: 0x6e7781,
  blue: 0x0969da,
  yellow: 0xd4a72c,
  orange: 0xe16f24,
} as const;

const DOTS: Record<number, string> = {
  [COLORS.green]: "🟢",
  [COLORS.red]: "🔴",
  [COLORS.purple]: "🟣",
  [COLORS.grey]: "⚪",
  [COLORS.blue]: "🔵",
  [COLORS.yellow]: "🟡",
  [COLORS.orange]: "🟠",
};

/** The status dot of a palette colour, or undefined for any other colour. */
export function colorDot(color: number | undefined): string | undefined {
  return color === undefined ? undefined : DOTS[color];
}

/**
 * The colour of a CI or deployment outcome: GitHub conclusions (`success`,
 * `failure`, `cancelled` …), commit status states (`error`, `pending`) and
 * deployment states (`in_progress`, `inactive`).
 */
export function outcomeColor(outcome: string | undefined): number {
  switch (outcome) {
    case "success":
      return COLORS.green;
    case "failure":
    case "error":
    case "timed_out":
    case "startup_failure":
      return COLORS.red;
    case "action_required":
      return COLORS.orange;
    case "cancelled":
    case "skipped":
    case "neutral":
    case "stale":
    case "inactive":
      return COLORS.grey;
    default:
      return COLORS.yellow;
  }
}

/** The colour of a security severity (`critical`, `high`, `medium`, `low`, `error`, `warning`, `note`). */
export function severityColor(severity: string | undefined): number {
  switch (severity?.toLowerCase()) {
    case "critical":
    case "high":
    case "error":
      return COLORS.red;
    case "medium":
    case "moderate":
    case "warning":
      return COLORS.orange;
    case "low":
      return COLORS.yellow;
    default:
      return COLORS.grey;
  }
}

/** A colour from `#rrggbb`, `rrggbb`, a palette name or a number; undefined when not one. */
export function parseColor(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 0 && value <= 0xffffff ? value : undefined;
  }
  if (typeof value !== "string") return undefined;
  const name = value.trim().toLowerCase();
  const named = ownValue<number>(COLORS, name);
  if (named !== undefined) return named;
  const hex = /^#?([0-9a-f]{6})$/.exec(name);
  return hex ? parseInt(hex[1], 16) : undefined;
}
