/**
 * Every limit the product promises, in one place: how much one instance stores, how large a
 * filter tree may grow, how long an id from outside may be and how much of a request body is
 * read. The checks import these numbers; none writes its own. Browser-safe.
 */

/** Most routes one instance stores. */
export const MAX_ROUTES = 200;
/** Most targets per route. */
export const MAX_TARGETS = 10;
/** Most filters per route. */
export const MAX_ROUTE_FILTERS = 64;
/** Largest stored route, in bytes of JSON (KV values are at most 64 KiB). */
export const MAX_ROUTE_BYTES = 60_000;

/** Most groups one instance stores. */
export const MAX_GROUPS = 100;
/** Largest stored group, in bytes of JSON (KV values are at most 64 KiB). */
export const MAX_GROUP_BYTES = 60_000;
/**
 * Most targets one group may be allowed: every target the route limits let one group's routes
 * name (all routes of an instance may belong to one group), so no valid route set is refused.
 */
export const MAX_ALLOWED_TARGETS = MAX_ROUTES * MAX_TARGETS;

/** Most fragments one group keeps. */
export const MAX_FRAGMENTS = 100;
/** Largest stored fragment list of one group, in bytes of JSON (KV values are at most 64 KiB). */
export const MAX_FRAGMENTS_BYTES = 60_000;

/** Deepest accepted filter tree; a lone leaf has depth 1, each all/any/not adds one. */
export const MAX_DEPTH = 8;
/** Most leaves (event and field filters) in one filter tree. */
export const MAX_LEAVES = 64;
/** Longest accepted JSONPath, in characters. */
export const PATH_MAX_LENGTH = 512;
/** Longest accepted regex pattern, in characters. */
export const REGEX_MAX_LENGTH = 512;

/** Longest message template body, in characters. */
export const TEMPLATE_BODY_MAX_LENGTH = 8000;
/** Longest message template title, in characters. */
export const TEMPLATE_TITLE_MAX_LENGTH = 500;

/** Longest sender delivery id accepted (`X-GitHub-Delivery`, `X-Gitea-Delivery`, `webhook-id`). */
export const MAX_DELIVERY_ID_LENGTH = 200;
/** Longest event action accepted (a payload's `action`). */
export const MAX_EVENT_ACTION_LENGTH = 64;

/** Webhook ingress bodies: 1 MB (1,048,576 bytes). */
export const WEBHOOK_BODY_BYTES = 1024 * 1024;
/** Admin API JSON bodies: 2 MB, so a test-match request can carry a payload of the ingress limit. */
export const ADMIN_BODY_BYTES = 2 * 1024 * 1024;
/** Action API bodies: 256 KiB (a 65,536-character comment in any UTF-8, with room to spare). */
export const ACTION_BODY_BYTES = 256 * 1024;
/** HTML form posts (invite and install pages): 16 KiB. */
export const FORM_BODY_BYTES = 16 * 1024;
/** A whole request body must arrive within 10 seconds. */
export const BODY_TIMEOUT_MS = 10_000;

/** Most values one `in` filter lists. */
export const MAX_IN_OPERANDS = 1000;
/** Longest string a field filter compares with (`eq`, `ne`, `contains`, … and each `in` value). */
export const FILTER_VALUE_MAX_LENGTH = 4096;
