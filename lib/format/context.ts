/**
 * What every forge formatter starts from: the event, its payload read
 * defensively, the repository it happened in, and web links into that forge.
 */

import type { ForgeEvent } from "../types.ts";
import type { Message, MessageAuthor, MessageField, RichText } from "./message.ts";
import { at, type Json, record, string } from "./read.ts";
import { safeUrl } from "./text.ts";

/** The repository an event happened in. */
export interface RepositoryRef {
  fullName: string;
  url?: string;
}

/** An event prepared for formatting. */
export interface EventContext {
  event: ForgeEvent;
  payload: Json;
  action?: string;
  repository?: RepositoryRef;
}

/** The parts of a message a formatter decides; the rest comes from the context. */
interface MessageParts {
  /** The title without the repository prefix. */
  subject: string;
  url?: string;
  color?: number;
  description?: RichText;
  fields?: (MessageField | undefined)[];
  /** Defaults to the payload's `sender`. */
  author?: MessageAuthor;
  mentions?: string[];
}

/** The repository of a payload: GitHub and Gitea both send `full_name` and `html_url`. */
function repositoryOf(payload: Json): RepositoryRef | undefined {
  const repository = record(payload.repository);
  if (!repository) return undefined;
  const fullName = string(repository.full_name) ??
    [
      string(at(repository, "owner", "login")) ?? string(at(repository, "owner", "username")),
      string(repository.name),
    ].filter(Boolean).join("/");
  if (!fullName) return undefined;
  return { fullName, url: safeUrl(repository.html_url) };
}

/** Prepares an event for formatting. */
export function createContext(event: ForgeEvent): EventContext {
  const payload = record(event.payload) ?? {};
  return {
    event,
    payload,
    action: event.action ?? string(payload.action),
    repository: repositoryOf(payload),
  };
}

/** The forge's web root (`https://github.com`), derived from the repository URL. */
function forgeBaseUrl(context: EventContext): string | undefined {
  const repository = context.repository;
  if (!repository?.url) return undefined;
  const suffix = `/${repository.fullName}`;
  return repository.url.endsWith(suffix)
    ? repository.url.slice(0, -suffix.length)
    : new URL(repository.url).origin;
}

/** A link inside the repository (`commit/abc`), or undefined without a repository URL. */
export function repositoryLink(context: EventContext, path: string): string | undefined {
  const base = context.repository?.url;
  return base ? safeUrl(`${base}/${path}`) : undefined;
}

function encodePath(name: string): string {
  return name.split("/").map(encodeURIComponent).join("/");
}

/** The web page of a commit. */
export function commitUrl(context: EventContext, sha: string): string | undefined {
  return repositoryLink(context, `commit/${encodeURIComponent(sha)}`);
}

/**
 * The web page of a branch (GitHub `tree/`, Gitea `src/branch/`), in the event's
 * repository or in another one given by its web URL (a fork).
 */
export function branchUrl(
  context: EventContext,
  branch: string,
  repositoryUrl = context.repository?.url,
): string | undefined {
  const prefix = context.event.provider === "gitea" ? "src/branch" : "tree";
  return repositoryUrl ? safeUrl(`${repositoryUrl}/${prefix}/${encodePath(branch)}`) : undefined;
}

/** The web page of a tag (GitHub `tree/`, Gitea `src/tag/`). */
export function tagUrl(context: EventContext, tag: string): string | undefined {
  const prefix = context.event.provider === "gitea" ? "src/tag" : "tree";
  return repositoryLink(context, `${prefix}/${encodePath(tag)}`);
}

/** The login of a GitHub or Gitea user object (`login`, else `username`, else `name`). */
export function loginOf(user: unknown): string | undefined {
  return string(at(user, "login")) ?? string(at(user, "username")) ?? string(at(user, "name"));
}

/** The profile page of a user object: its `html_url`, else the forge root plus the login. */
export function userUrl(context: EventContext, user: unknown): string | undefined {
  const own = safeUrl(at(user, "html_url"));
  if (own) return own;
  const login = string(at(user, "login")) ?? string(at(user, "username"));
  const base = forgeBaseUrl(context);
  return login && base ? safeUrl(`${base}/${encodeURIComponent(login)}`) : undefined;
}

/** A user object as a message author, or undefined when it has no name. */
export function authorOf(context: EventContext, user: unknown): MessageAuthor | undefined {
  const name = loginOf(user);
  if (!name) return undefined;
  const author: MessageAuthor = { name };
  const url = userUrl(context, user);
  const iconUrl = safeUrl(at(user, "avatar_url"));
  if (url) author.url = url;
  if (iconUrl) author.iconUrl = iconUrl;
  return author;
}

/** The title with the repository in front: `[owner/repo] subject`. */
function titleOf(context: EventContext, subject: string): string {
  return context.repository ? `[${context.repository.fullName}] ${subject}` : subject;
}

/** The ISO time the event was received, or undefined when the clock value is unusable. */
export function timestampOf(event: ForgeEvent): string | undefined {
  const date = new Date(event.receivedAt);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Builds the message: title prefix, sender as author, repository footer and time are shared. */
export function compose(context: EventContext, parts: MessageParts): Message {
  const message: Message = { title: titleOf(context, parts.subject) };
  const url = safeUrl(parts.url);
  const author = parts.author ?? authorOf(context, context.payload.sender);
  const fields = (parts.fields ?? []).filter((item) => item !== undefined);
  const timestamp = timestampOf(context.event);
  if (url) message.url = url;
  if (author) message.author = author;
  if (parts.color !== undefined) message.color = parts.color;
  if (parts.description && parts.description.length > 0) message.description = parts.description;
  if (fields.length > 0) message.fields = fields;
  message.footer = context.repository
    ? { repository: context.repository.fullName, provider: context.event.provider }
    : { provider: context.event.provider };
  if (timestamp) message.timestamp = timestamp;
  if (parts.mentions && parts.mentions.length > 0) message.mentions = parts.mentions;
  return message;
}
