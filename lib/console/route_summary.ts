/**
 * One-line descriptions of a route for the console's lists: its filter tree in words
 * (`pull_request.opened and pull_request.labels[*].name eq "bug"`) and its targets
 * (`Discord #123 › thread 456`). Browser-safe.
 */
import type { FieldFilter, FilterNode, Route, Target } from "../types.ts";

/** Longest summary; longer ones are cut with an ellipsis. */
const SUMMARY_MAX = 140;

const OP_WORDS: Record<string, string> = {
  eq: "=",
  ne: "≠",
  contains: "contains",
  startsWith: "starts with",
  endsWith: "ends with",
  regex: "matches",
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
  in: "in",
  exists: "exists",
};

function shown(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(shown).join(", ")}]`;
  if (typeof value === "string") return JSON.stringify(value);
  return String(value);
}

function fieldWords(filter: FieldFilter): string {
  const op = filter.op ?? "eq";
  if (op === "exists") {
    return filter.value === false ? `${filter.path} missing` : `${filter.path} exists`;
  }
  const text = `${filter.path} ${OP_WORDS[op] ?? op} ${shown(filter.value)}`;
  return op === "regex" ? text.replace(/ "(.*)"$/, " /$1/") : text;
}

function words(node: FilterNode, nested: boolean): string {
  if ("all" in node || "any" in node) {
    const [kind, children] = "all" in node ? ["all", node.all] : ["any", node.any];
    if (children.length === 0) return kind === "all" ? "every event" : "no event";
    if (children.length === 1) return words(children[0], nested);
    const text = children.map((child) => words(child, true)).join(
      kind === "all" ? " and " : " or ",
    );
    return nested ? `(${text})` : text;
  }
  if ("not" in node) return `not ${words(node.not, true)}`;
  if (node.type === "event") {
    const list = typeof node.value === "string" ? [node.value] : node.value;
    const text = list.join(" or ");
    return nested && list.length > 1 ? `(${text})` : text;
  }
  return fieldWords(node);
}

/** A filter tree in one line, cut at SUMMARY_MAX characters. */
export function summarizeFilter(node: FilterNode): string {
  let text: string;
  try {
    text = words(node, false);
  } catch {
    return "(not a valid filter tree)";
  }
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text;
}

/** What a route selects, in one line. */
export function summarizeRoute(route: Pick<Route, "ast" | "filters" | "fallback">): string {
  const node: FilterNode = route.ast ?? { all: route.filters };
  if (route.fallback === true && "all" in node && node.all.length === 0) {
    return "every event no other route took";
  }
  const text = summarizeFilter(node);
  return route.fallback === true ? `${text}, when no other route took it` : text;
}

/** A target in a few words. */
export function describeTarget(target: Target): string {
  return target.platform === "discord"
    ? `Discord #${target.channelId}${target.threadId ? ` › thread ${target.threadId}` : ""}`
    : `Telegram ${target.chatId}${target.topicId ? ` › topic ${target.topicId}` : ""}`;
}
