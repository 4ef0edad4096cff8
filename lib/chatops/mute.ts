/**
 * Filters from chat: `/gh mute author <login>`, `/gh mute label <name>`, `/gh mute bots`, the
 * matching `/gh unmute …` and `/gh filters`. A mute is an ordinary `not` node under the root of
 * the filter tree of every route that posts into the chat, in the groups that may post there
 * and that the user owns or administers; the root is wrapped in `all` when it is not one
 * already. The change is one switch of the versioned route set, checked against the version it
 * was read at and committed with its audit entries, so the console's tree editor shows the
 * same node and can edit or remove it like any other.
 */
import type { Kv } from "../store/backend/types.ts";
import { routeFilterNode } from "../routing/compile.ts";
import { describeIssues, validateFilterNode } from "../routing/validate.ts";
import { type AuditActor, newAuditEntry } from "../store/telemetry/audit.ts";
import { getRoutes, replaceRoutes } from "../store/config/routes.ts";
import { type TargetRef, targetRefKey } from "../target_ref.ts";
import type { FilterNode, Route } from "../types.ts";
import type { ChatReply } from "./act.ts";
import { groupsOfChat } from "./chat_groups.ts";

/** What a mute hides: one author, one label, or every bot. */
type MuteSubject =
  | { kind: "author"; login: string }
  | { kind: "label"; name: string }
  | { kind: "bots" };

/** A parsed `/gh mute`, `/gh unmute` or `/gh filters`. */
export type MuteRequest =
  | { verb: "mute" | "unmute"; subject: MuteSubject }
  | { verb: "filters" };

/** GitHub logins: 1-39 letters, digits or single hyphens; apps end in `[bot]`. */
const LOGIN_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;
/** GitHub's longest label name. */
export const MAX_LABEL_LENGTH = 50;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const ATTEMPTS = 5;

/** How to write the commands, for answers to a malformed one. */
export const MUTE_USAGE = "Use /gh mute author <login>, /gh mute label <name>, /gh mute bots " +
  "(or /gh unmute … the same way), and /gh filters to list them.";

/**
 * Reads what follows `mute` or `unmute`: `author <login>`, `label <name>` (the rest of the
 * line, spaces kept) or `bots`. Answers the subject or a short explanation.
 */
export function parseMuteSubject(kind: string, value: string): MuteSubject | string {
  const given = value.trim();
  switch (kind.trim().toLowerCase()) {
    case "author":
      return LOGIN_PATTERN.test(given)
        ? { kind: "author", login: given }
        : "Give a GitHub login: letters, digits and hyphens, at most 39 (an app may end in [bot]).";
    case "label":
      return given !== "" && given.length <= MAX_LABEL_LENGTH && !CONTROL.test(given)
        ? { kind: "label", name: given }
        : `Give a label name of 1-${MAX_LABEL_LENGTH} characters.`;
    case "bots":
      return given === "" ? { kind: "bots" } : "/gh mute bots takes nothing after it.";
    default:
      return MUTE_USAGE;
  }
}

/** Reads `/gh mute …` or `/gh unmute …` from the words after the verb (`author octocat`). */
export function parseMuteRequest(verb: "mute" | "unmute", rest: string): MuteRequest | string {
  const trimmed = rest.trim();
  const space = trimmed.search(/\s/);
  const kind = space < 0 ? trimmed : trimmed.slice(0, space);
  const subject = parseMuteSubject(kind, space < 0 ? "" : trimmed.slice(space));
  return typeof subject === "string" ? subject : { verb, subject };
}

/** The filter that matches what the subject hides (the mute is its negation). */
export function muteMatcher(subject: MuteSubject): FilterNode {
  switch (subject.kind) {
    case "author":
      return { type: "field", path: "sender.login", op: "eq", value: subject.login };
    case "label":
      return { type: "field", path: "$..labels[*].name", op: "eq", value: subject.name };
    case "bots":
      return {
        any: [
          { type: "field", path: "sender.type", op: "eq", value: "Bot" },
          { type: "field", path: "sender.login", op: "endsWith", value: "[bot]" },
        ],
      };
  }
}

/** The subject in words: `author octocat`, `label "wontfix"`, `bots`. */
function describeMute(subject: MuteSubject): string {
  switch (subject.kind) {
    case "author":
      return `author ${subject.login}`;
    case "label":
      return `label "${subject.name}"`;
    case "bots":
      return "bots";
  }
}

function sameNode(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Which mute a `not` node is, when it is one this module writes. */
function muteOf(node: FilterNode): MuteSubject | null {
  if (!("not" in node)) return null;
  if (sameNode(node.not, muteMatcher({ kind: "bots" }))) return { kind: "bots" };
  const inner = node.not;
  if (!("type" in inner) || inner.type !== "field" || inner.op !== "eq") return null;
  if (typeof inner.value !== "string" || Object.keys(inner).length !== 4) return null;
  if (inner.path === "sender.login") return { kind: "author", login: inner.value };
  if (inner.path === "$..labels[*].name") return { kind: "label", name: inner.value };
  return null;
}

/** The mutes at the top of a route's tree (children of a root `all`), in order. */
function mutesOf(route: Route): MuteSubject[] {
  const root = routeFilterNode(route);
  if (!("all" in root)) return [];
  return root.all.map(muteOf).filter((subject) => subject !== null);
}

/** The route with the mute added, or null when it already has it. */
function withMute(route: Route, subject: MuteSubject): Route | null {
  const leaf: FilterNode = { not: muteMatcher(subject) };
  const root = routeFilterNode(route);
  const children = "all" in root ? root.all : [root];
  if (children.some((child) => sameNode(child, leaf))) return null;
  return { ...route, ast: { all: [...children, leaf] } };
}

/** The route with the mute taken out, or null when it does not have it. */
function withoutMute(route: Route, subject: MuteSubject): Route | null {
  const leaf: FilterNode = { not: muteMatcher(subject) };
  const root = routeFilterNode(route);
  if (!("all" in root)) return null;
  const kept = root.all.filter((child) => !sameNode(child, leaf));
  if (kept.length === root.all.length) return null;
  return { ...route, ast: { all: kept } };
}

function postsInto(route: Route, key: string): boolean {
  return route.targets.some((target) => targetRefKey(target) === key);
}

function placeOf(chat: TargetRef): string {
  return chat.platform === "discord" ? "this channel" : "this chat";
}

function listText(routes: readonly Route[], chat: TargetRef): string {
  const lines = routes.map((route) => {
    const mutes = mutesOf(route).map(describeMute);
    return `${route.name} (${route.groupId}/${route.id}): ${
      mutes.length > 0 ? mutes.join(", ") : "nothing muted"
    }`;
  });
  return [`Routes posting into ${placeOf(chat)}:`, ...lines].join("\n");
}

/** Applies a mute or unmute to the routes; the changed routes, or a refusal in words. */
function editRoutes(
  all: readonly Route[],
  mine: ReadonlySet<Route>,
  verb: "mute" | "unmute",
  subject: MuteSubject,
): { next: Route[]; changed: Route[] } | string {
  const changed: Route[] = [];
  const next = all.map((route) => {
    if (!mine.has(route)) return route;
    const edited = verb === "mute" ? withMute(route, subject) : withoutMute(route, subject);
    if (!edited) return route;
    changed.push(edited);
    return edited;
  });
  for (const route of changed) {
    const issues = validateFilterNode(route.ast);
    if (issues.length > 0) {
      return `The filter of route ${route.name} cannot take this: ${describeIssues(issues)}.`;
    }
  }
  return { next, changed };
}

function auditsFor(actor: AuditActor, changed: readonly Route[], change: string, at: number) {
  const byGroup = new Map<string, string[]>();
  for (const route of changed) {
    byGroup.set(route.groupId, [...byGroup.get(route.groupId) ?? [], route.id]);
  }
  return [...byGroup].map(([groupId, routeIds]) =>
    newAuditEntry({
      actor,
      action: "routes.replace",
      groupId,
      detail: { via: "chat", change, routeIds },
    }, at)
  );
}

/**
 * Runs a mute, unmute or filters request from `chat` for `actor` (the user's linked GitHub
 * account) and answers in words. Only routes of groups that may post into the chat and that
 * the actor owns or administers are read or changed.
 */
export async function runMuteRequest(
  kv: Kv,
  actor: AuditActor,
  chat: TargetRef,
  request: MuteRequest,
  now: number = Date.now(),
): Promise<ChatReply> {
  const { subscribed, managed } = await groupsOfChat(kv, actor, chat);
  const groupIds = new Set(managed.map((entry) => entry.group.id));
  if (subscribed.length === 0) {
    return { ok: false, text: `No group is subscribed to ${placeOf(chat)} (/gh subscribe).` };
  }
  if (groupIds.size === 0) {
    return {
      ok: false,
      text: `Only an owner or admin of a group that posts into ${placeOf(chat)} can do this.`,
    };
  }
  const key = targetRefKey(chat);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const stored = await getRoutes(kv);
    const mine = new Set(
      stored.routes.filter((route) => groupIds.has(route.groupId) && postsInto(route, key)),
    );
    if (mine.size === 0) {
      return { ok: false, text: `No route of your groups posts into ${placeOf(chat)}.` };
    }
    if (request.verb === "filters") return { ok: true, text: listText([...mine], chat) };
    const edit = editRoutes(stored.routes, mine, request.verb, request.subject);
    if (typeof edit === "string") return { ok: false, text: edit };
    const what = describeMute(request.subject);
    if (edit.changed.length === 0) {
      return {
        ok: true,
        text: request.verb === "mute"
          ? `${what} is already muted in ${placeOf(chat)}.`
          : `${what} was not muted in ${placeOf(chat)}.`,
      };
    }
    const audits = auditsFor(actor, edit.changed, `${request.verb} ${what}`, now);
    const result = await replaceRoutes(kv, edit.next, stored.versionstamp, { audits });
    if (result.ok) {
      const names = edit.changed.map((route) => route.name).join(", ");
      return {
        ok: true,
        text: request.verb === "mute"
          ? `Muted ${what} in ${placeOf(chat)} (routes: ${names}).`
          : `Unmuted ${what} in ${placeOf(chat)} (routes: ${names}).`,
      };
    }
    if (result.reason !== "conflict") {
      return { ok: false, text: "The routes could not be saved; ask an admin to check them." };
    }
  }
  return { ok: false, text: "The routes kept changing meanwhile; try again." };
}
