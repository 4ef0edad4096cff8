/**
 * The domain's plain data shapes. They are plain JSON so they can
 * be stored in KV, sent to the browser and compared structurally; the zod
 * schemas in `lib/model/schema.ts` validate exactly these shapes.
 */

/** Where an event came from. */
export type Provider = "github" | "gitea" | "custom";

/** A forge a group may restrict itself to. */
type ForgeProvider = "github" | "gitea";

/**
 * Which ingress accepted an event: the global one or a group's own. A group's names the internal
 * id of the group that had the id then (absent on events accepted before it was recorded): the
 * event enters that group only, never a group created later with the same id.
 */
export type Scope = { type: "global" } | { type: "group"; groupId: string; internalId?: string };

/** A leaf filter on the event kind (`push`, `pull_request.opened`, `pull_request.*`, `custom`). */
interface EventFilter {
  type: "event";
  value: string | string[];
}

/** The twelve field operators. */
export type FieldOp =
  | "eq"
  | "ne"
  | "contains"
  | "startsWith"
  | "endsWith"
  | "regex"
  | "gt"
  | "gte"
  | "lt"
  | "lte"
  | "in"
  | "exists";

/** A leaf filter on a JSONPath into the payload. */
export interface FieldFilter {
  type: "field";
  path: string;
  op?: FieldOp;
  value?: unknown;
  caseSensitive?: boolean;
}

/** A stored leaf filter. */
export type Filter = EventFilter | FieldFilter;

/** A filter tree. */
export type FilterNode =
  | Filter
  | { all: FilterNode[] }
  | { any: FilterNode[] }
  | { not: FilterNode };

/** A chat destination. */
export type Target =
  | { platform: "discord"; channelId: string; threadId?: string }
  | { platform: "telegram"; chatId: string; topicId?: number };

/** A chat platform. */
export type Platform = Target["platform"];

/** A route: filters that select events and the targets they go to. */
export interface Route {
  id: string;
  name: string;
  enabled: boolean;
  groupId: string;
  fallback?: boolean;
  filters: Filter[];
  ast?: FilterNode;
  discordRoleIds?: string[];
  targets: Target[];
  /** A message template that replaces the built-in message text (docs/templates.md). */
  template?: RouteTemplate;
  /** Noise control (docs/noise.md): bursts gathered into digests. */
  digest?: RouteDigest;
  /** Noise control: a subject's later events as replies to its first card. */
  threads?: boolean;
  /** Noise control: hours during which non-urgent events are held for one digest. */
  quietHours?: RouteQuietHours;
}

/** A route's digest option: beyond `threshold` events within `windowSeconds`, one digest. */
export interface RouteDigest {
  windowSeconds: number;
  threshold: number;
}

/** A route's quiet hours: `HH:MM` local times in an IANA time zone; `urgent` events still go. */
export interface RouteQuietHours {
  start: string;
  end: string;
  timeZone: string;
  urgent?: FilterNode;
}

/** A route's message template: its title (optional) and body, in the template language. */
export interface RouteTemplate {
  title?: string;
  body: string;
}

/** A named, reusable filter tree (editor-side only). */
export interface Fragment {
  id: string;
  groupId: string;
  name: string;
  node: FilterNode;
}

/** A member's role within a group. */
export type Role = "owner" | "admin" | "viewer";

/** A member of a group. */
export interface Member {
  userId: string;
  login: string;
  role: Role;
}

/** A group of routes with its members. */
export interface Group {
  id: string;
  name: string;
  members: Member[];
  providers?: ForgeProvider[];
  installationId?: number;
  owners?: string[];
}

/** A signed-in person and their rights (resolved by `lib/auth/principal.ts`). */
export interface Principal {
  userId: string;
  login: string;
  superAdmin: boolean;
  /** The person's role in each group they belong to, by group id. */
  roles: ReadonlyMap<string, Role>;
  /** The token forms must send back (per session). */
  csrfToken: string;
  /** The session cookie's value; null for the DEBUG_MODE principal. */
  sessionId: string | null;
  /** Whether this is the DEBUG_MODE principal (no session, no GitHub token). */
  debug: boolean;
}

/** An accepted webhook event, as the delivery worker sees it. */
export interface ForgeEvent {
  /** Internal id (sortable). */
  id: string;
  provider: Provider;
  /** Event kind, normalized to GitHub's names (`push`, `pull_request`, `custom`, ...). */
  kind: string;
  /** The payload's `action`, normalized to GitHub's names, when it has one. */
  action?: string;
  /** The sender's delivery id, when it sent one. */
  deliveryId?: string;
  scope: Scope;
  /** Unix milliseconds. */
  receivedAt: number;
  /** The request headers that matter for later processing (lower-case names). */
  headers: Record<string, string>;
  payload: Record<string, unknown>;
}
