/**
 * The route editor's form: a route's plain fields as typed text, checked as you type with the
 * rules and messages the API applies (`lib/model/route_rules.ts`), and turned back into a
 * route for saving. Problems are keyed by the field's path as the API names it
 * (`targets[0].channelId`), so an error the API answers lands on the same field. Fields the
 * form does not know (added by a newer version) are kept as they are. Browser-safe.
 */
import { sameJson } from "../same_json.ts";
import { routeFilterNode } from "../routing/compile.ts";
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
  TOPIC_ID_ERROR,
} from "../model/route_rules.ts";
import type { FilterNode, Route, Target } from "../types.ts";

export { MAX_ROLE_IDS, MAX_TARGETS };

/** A target as the form holds it: the channel or chat, and the thread or topic, as text. */
export interface TargetDraft {
  platform: "discord" | "telegram";
  /** Discord channel id or Telegram chat id. */
  place: string;
  /** Discord thread id or Telegram topic id; empty when none. */
  sub: string;
}

/** The route editor's form. */
export interface RouteDraft {
  id: string;
  name: string;
  enabled: boolean;
  fallback: boolean;
  targets: TargetDraft[];
  roleIds: string[];
}

/** Problems by field path (`name`, `targets[1].chatId`, `discordRoleIds[0]`). */
export type DraftProblems = Map<string, string>;

/** The form for a stored route. */
export function draftOf(route: Route): RouteDraft {
  return {
    id: route.id,
    name: route.name,
    enabled: route.enabled,
    fallback: route.fallback === true,
    targets: route.targets.map((target) =>
      target.platform === "discord"
        ? { platform: "discord", place: target.channelId, sub: target.threadId ?? "" }
        : { platform: "telegram", place: target.chatId, sub: String(target.topicId ?? "") }
    ),
    roleIds: [...(route.discordRoleIds ?? [])],
  };
}

/** An empty form for a new route. */
export function newDraft(): RouteDraft {
  return {
    id: "",
    name: "",
    enabled: true,
    fallback: false,
    targets: [{ platform: "discord", place: "", sub: "" }],
    roleIds: [],
  };
}

/** The field names a target's ids have in the stored form. */
export function targetFields(platform: TargetDraft["platform"]): { place: string; sub: string } {
  return platform === "discord"
    ? { place: "channelId", sub: "threadId" }
    : { place: "chatId", sub: "topicId" };
}

/** A route id made from a name: `PR opened → Discord` → `pr-opened-discord`. */
export function idFromName(name: string, taken: ReadonlySet<string>): string {
  const base = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "").slice(0, 56) || "route";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

function targetProblems(target: TargetDraft, index: number, problems: DraftProblems) {
  const fields = targetFields(target.platform);
  const at = (field: string) => `targets[${index}].${field}`;
  const place = target.place.trim();
  const sub = target.sub.trim();
  if (target.platform === "discord") {
    if (place === "") problems.set(at(fields.place), "required");
    else if (canonicalSnowflake(place) === null) problems.set(at(fields.place), DISCORD_ID_ERROR);
    if (sub !== "" && canonicalSnowflake(sub) === null) {
      problems.set(at(fields.sub), DISCORD_ID_ERROR);
    }
  } else {
    if (place === "") problems.set(at(fields.place), "required");
    else if (canonicalChatId(place) === null) problems.set(at(fields.place), CHAT_ID_ERROR);
    if (sub !== "" && canonicalTopicId(sub) === null) problems.set(at(fields.sub), TOPIC_ID_ERROR);
  }
}

/**
 * The form's problems, with the API's messages. `takenIds` are the ids of the group's other
 * routes; a new route's id must not be one of them.
 */
export function draftProblems(draft: RouteDraft, takenIds: ReadonlySet<string>): DraftProblems {
  const problems: DraftProblems = new Map();
  if (!ID_PATTERN.test(draft.id)) problems.set("id", draft.id === "" ? "required" : ID_ERROR);
  else if (takenIds.has(draft.id)) {
    problems.set("id", `another route of this group has id "${draft.id}"`);
  }
  if (draft.name.trim() === "") problems.set("name", "required");
  else if (draft.name.length > MAX_NAME_LENGTH) {
    problems.set("name", `at most ${MAX_NAME_LENGTH} characters`);
  }
  if (draft.targets.length === 0) problems.set("targets", "at least one target");
  if (draft.targets.length > MAX_TARGETS) problems.set("targets", `at most ${MAX_TARGETS} targets`);
  draft.targets.forEach((target, index) => targetProblems(target, index, problems));
  if (draft.roleIds.length > MAX_ROLE_IDS) {
    problems.set("discordRoleIds", `at most ${MAX_ROLE_IDS} role ids`);
  }
  draft.roleIds.forEach((id, index) => {
    if (canonicalSnowflake(id) === null) problems.set(`discordRoleIds[${index}]`, DISCORD_ID_ERROR);
  });
  return problems;
}

function targetOf(target: TargetDraft): Target {
  const place = target.place.trim();
  const sub = target.sub.trim();
  if (target.platform === "discord") {
    const channelId = canonicalSnowflake(place) ?? place;
    return sub === ""
      ? { platform: "discord", channelId }
      : { platform: "discord", channelId, threadId: canonicalSnowflake(sub) ?? sub };
  }
  const chatId = canonicalChatId(place) ?? place;
  return sub === ""
    ? { platform: "telegram", chatId }
    : { platform: "telegram", chatId, topicId: canonicalTopicId(sub) ?? Number(sub) };
}

const EMPTY_ALL: FilterNode = { all: [] };

/**
 * The route to save: the stored route `base` (when editing) with the form and the filter
 * tree applied. An unchanged tree keeps the route's stored `filters`/`ast`; a fallback route
 * with an empty tree stores no filter at all.
 */
export function routeFromDraft(
  draft: RouteDraft,
  tree: FilterNode,
  groupId: string,
  base?: Route,
): Route {
  const route: Route = {
    ...base,
    id: draft.id,
    name: draft.name.trim(),
    enabled: draft.enabled,
    groupId,
    filters: [],
    targets: draft.targets.map(targetOf),
  };
  delete route.ast;
  if (draft.fallback) route.fallback = true;
  else if (base?.fallback !== undefined) route.fallback = false;
  else delete route.fallback;
  if (draft.roleIds.length > 0) {
    route.discordRoleIds = draft.roleIds.map((id) => canonicalSnowflake(id) ?? id);
  } else delete route.discordRoleIds;
  if (base && sameJson(tree, routeFilterNode(base))) {
    route.filters = base.filters;
    if (base.ast !== undefined) route.ast = base.ast;
  } else if (!(draft.fallback && sameJson(tree, EMPTY_ALL))) {
    route.ast = tree;
  }
  return route;
}

/**
 * The field an API error names for the route at `index` of the saved list
 * (`routes[3].targets[0].channelId: required` → `targets[0].channelId`), or null when the
 * error is not about that route.
 */
export function fieldOfApiError(
  message: string,
  index: number,
): { field: string; message: string } | null {
  const prefix = `routes[${index}]`;
  if (!message.startsWith(prefix)) return null;
  const rest = message.slice(prefix.length);
  const colon = rest.indexOf(": ");
  if (colon < 0) return null;
  const field = rest.slice(0, colon).replace(/^\./, "");
  return { field, message: rest.slice(colon + 2) };
}
