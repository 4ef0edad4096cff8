/**
 * Key builders: one function per KV collection, so every read and write of a
 * collection goes through the same tuple shape. Nothing outside `lib/store`
 * builds keys by hand.
 */

/** Health probe record, read by `GET /health`. */
export const healthKey = () => ["health"] as const;

/** Stored GitHub token of a user (CONTRACT §4). */
export const tokenKey = (userId: string) => ["token", userId] as const;

/** Reverse index from sha256(access token) to the user id. */
export const tokenReverseKey = (tokenSha256: string) => ["token-reverse", tokenSha256] as const;

/** Per-group webhook secret. */
export const tenantKey = (groupId: string) => ["tenant", groupId] as const;

/** A group record. */
export const groupKey = (groupId: string) => ["groups", groupId] as const;

/** Prefix of every group record. */
export const groupsPrefix = () => ["groups"] as const;

/** An accepted event's metadata (payload chunks live apart). */
export const eventKey = (eventId: string) => ["events", eventId] as const;

/** One chunk of an accepted event's raw payload. */
export const eventChunkKey = (eventId: string, index: number) =>
  ["event_chunks", eventId, index] as const;

/** Prefix of an event's payload chunks. */
export const eventChunksPrefix = (eventId: string) => ["event_chunks", eventId] as const;

/** De-duplication mark of a delivery id within a scope (`global` or a group id). */
export const dedupKey = (scope: string, provider: string, deliveryId: string) =>
  ["dedup", scope, provider, deliveryId] as const;

/** Single-use nonce of a custom sender within a scope. */
export const nonceKey = (scope: string, nonce: string) => ["nonces", scope, nonce] as const;

/** One audit entry, by its ulid. */
export const auditKey = (entryId: string) => ["audit", entryId] as const;

/** Prefix of every audit entry (ulid order, oldest first). */
export const auditPrefix = () => ["audit"] as const;

/** Index of a group's audit entries: the value is the entry id. */
export const auditByGroupKey = (groupId: string, entryId: string) =>
  ["audit_by_group", groupId, entryId] as const;

/** Prefix of one group's audit index. */
export const auditByGroupPrefix = (groupId: string) => ["audit_by_group", groupId] as const;

// --- Routes (lib/store/routes.ts) ---------------------------------------------------------

/** Pointer to the current route set: `{ setId, count, updatedAt }`. */
export const routesPointerKey = () => ["routes_pointer"] as const;

/** One route of a route set, by its position in the stored order. */
export const routeSetEntryKey = (setId: string, index: number) =>
  ["route_sets", setId, index] as const;

/** Prefix of one route set's entries. */
export const routeSetPrefix = (setId: string) => ["route_sets", setId] as const;

/** A route set being written; removed when the pointer switches to it (orphan sweeping). */
export const routeSetPendingKey = (setId: string) => ["route_sets_pending", setId] as const;

/** Prefix of every pending route set. */
export const routeSetsPendingPrefix = () => ["route_sets_pending"] as const;

// --- Identity (lib/store/sessions.ts, oauth_states.ts, links.ts) ----------------------------

/** An admin session, by the sha256 hex of its cookie value (the raw id is never stored). */
export const sessionKey = (sessionIdSha256: string) => ["sessions", sessionIdSha256] as const;

/** A pending OAuth `state` and the flow that started it. */
export const oauthStateKey = (state: string) => ["oauth_states", state] as const;

/** A Discord user's linked GitHub account. */
export const discordLinkKey = (discordUserId: string) => ["discord_links", discordUserId] as const;

/** A Telegram user's linked GitHub account. */
export const telegramLinkKey = (telegramUserId: string) =>
  ["telegram_links", telegramUserId] as const;
