/**
 * Generators of malformed and hostile input for the fuzz tests (no tests here): strings that
 * poke at prototypes, paths, encodings and sizes; header values; JSON with hostile keys and
 * depth; raw bodies that are not JSON at all; and mutations of valid bodies, which reach past
 * the first check of an endpoint.
 */
import fc from "fast-check";

const PRINTABLE = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const LATIN1 = fc.integer({ min: 0x20, max: 0xff }).filter((code) => code !== 0x7f)
  .map((code) => String.fromCharCode(code));

/** Strings that have broken parsers, lookups and limits elsewhere. */
export const NASTY_STRINGS = [
  "",
  " ",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "../../etc/passwd",
  "..",
  "%00",
  "%2e%2e%2f",
  "\u0000",
  "\u202e",
  "\ud800",
  "<script>alert(1)</script>",
  "' OR '1'='1",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "$.a[?(@.b)]",
  "(a+)+$",
  "NaN",
  "Infinity",
  "-0",
  "1e309",
  "9007199254740993",
  "-1",
  "0",
  "true",
  "null",
  "a".repeat(70),
  "x".repeat(5_000),
  "é",
  "🙂",
  "A".repeat(300),
];

/** A hostile string: a nasty constant, any unicode, or binary-ish text. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 300 }) },
);

/** Path parts with broken or surprising percent-escapes, put in a URL as they are. */
export const RAW_PATH_PARTS = [
  "%",
  "%E0%A4%A",
  "%ZZ",
  "%00",
  "%FF%FE",
  "..%2f..",
  "a%2Fb",
  "%2e%2e",
  "%C0%AE",
  "a;b",
  "a%3Fb",
];

/** A valid-looking id, or a hostile one. */
export const idLike: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,63}$/),
  fc.constantFrom("alpha", "beta", "gamma", "ALPHA", "a".repeat(65)),
  hostileString,
);

/** A header value the Fetch API accepts (Latin-1 without control characters). */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: PRINTABLE, maxLength: 120 }),
  fc.string({ unit: LATIN1, maxLength: 40 }),
  fc.constantFrom(
    "",
    "0",
    "-1",
    "1e99",
    "sha256=",
    "sha256=zz",
    "Bearer",
    "null",
    "x".repeat(9_000),
  ),
);

/** Header names an attacker might send, including the ones Switchyard reads. */
export const headerName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "x-github-event",
    "x-github-delivery",
    "x-hub-signature-256",
    "x-hub-signature",
    "x-gitea-event",
    "x-gitea-delivery",
    "x-gitea-signature",
    "x-forgejo-signature",
    "x-switchyard-signature",
    "x-switchyard-timestamp",
    "x-switchyard-nonce",
    "webhook-id",
    "webhook-timestamp",
    "webhook-signature",
    "content-type",
    "content-length",
    "content-encoding",
    "origin",
    "authorization",
    "cookie",
    "if-match",
    "x-request-id",
    "x-signature-ed25519",
    "x-signature-timestamp",
    "x-telegram-bot-api-secret-token",
    "accept",
    "host",
  ),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,30}$/),
);

/** A few headers with hostile values. */
export const hostileHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(headerName, headerValue),
  { maxLength: 6 },
);

const hostileKey = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "", "$", "*", "0"),
  fc.string({ maxLength: 12 }),
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308, 2 ** 64),
  hostileString,
);

/** JSON values with hostile keys, strings and numbers. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(hostileKey, tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** A JSON text nested `depth` levels deep. */
function nested(depth: number, open: string, close: string): string {
  return open.repeat(depth) + close.repeat(depth);
}

/** A raw request body: hostile JSON text, deep nesting, broken JSON, or bytes. */
export const rawBody: fc.Arbitrary<string | Uint8Array<ArrayBuffer>> = fc.oneof(
  { weight: 4, arbitrary: hostileJson.map((value) => JSON.stringify(value) ?? "null") },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((d) => nested(d, "[", "]")) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 20_000 }).map((d) => nested(d, '{"a":', "}")),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => new Uint8Array(bytes)),
  },
  { weight: 1, arbitrary: fc.constantFrom("", "{", "}", "[]", "null", '{"__proto__":{"x":1}}') },
);

/** Every place in a JSON value (as a key path). */
function pathsOf(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...at, index], out));
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...at, key], out);
  }
  return out;
}

function clone(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** Adds `key` (an own property, even `__proto__`) or an element to a container in place. */
function addTo(container: unknown, key: string, value: unknown): void {
  if (Array.isArray(container)) container.push(value);
  else if (container !== null && typeof container === "object") {
    Object.defineProperty(container, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

/** `value` with one place replaced, removed, or given an extra key or element. */
function mutateAt(
  value: unknown,
  path: (string | number)[],
  kind: "replace" | "delete" | "add",
  replacement: unknown,
  key: string,
): unknown {
  if (path.length === 0 && kind !== "add") return kind === "replace" ? replacement : value;
  const copy = clone(value) as Record<string | number, unknown>;
  if (path.length === 0) {
    addTo(copy, key, replacement);
    return copy;
  }
  let parent = copy;
  for (const part of path.slice(0, -1)) parent = parent[part] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (kind === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (kind === "add") {
    addTo(parent[last], key, replacement);
  } else {
    parent[last] = replacement;
  }
  return copy;
}

/** Mutations of a valid value: one place replaced, removed, or given a hostile extra key. */
export function mutationsOf(valid: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(clone(valid)) },
    {
      weight: 6,
      arbitrary: fc.tuple(
        fc.integer({ min: 0, max: paths.length - 1 }),
        fc.constantFrom("replace" as const, "delete" as const, "add" as const),
        hostileJson,
        hostileKey,
      ).map(([index, kind, replacement, key]) =>
        mutateAt(valid, paths[index], kind, replacement, key)
      ),
    },
  );
}

/** A query string of hostile names and values (without `?`). */
export const hostileQuery: fc.Arbitrary<string> = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom(
        "groupId",
        "routeId",
        "status",
        "cursor",
        "limit",
        "days",
        "secrets",
        "dryRun",
        "q",
        "from",
        "to",
        "event",
        "platform",
        "token",
        "state",
        "code",
      ),
      hostileString,
    ),
    hostileString,
  ),
  { maxLength: 4 },
).map((pairs) => new URLSearchParams(pairs).toString());
