/**
 * The lifetimes table of store copies (lib/store/copy_lifetimes.ts) stays complete: every
 * `set(…)` in lib/ whose options carry `expireIn` writes a family that `familyExpires` knows,
 * so a copy never keeps such an entry forever. The family is read from lib/store/keys.ts (the
 * first string of the array the key builder returns). Keys that cannot be resolved statically
 * are resolved by hand in {@link BY_HAND}.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { familyExpires } from "../../lib/store/copy_lifetimes.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Expiring writes whose key the scan cannot resolve, by `file|key argument`: the families they
 * write, resolved by hand, and why.
 */
const BY_HAND: ReadonlyMap<string, { families: string[]; why: string }> = new Map([
  ["lib/store/copy.ts|key", {
    families: [],
    why: "the copy itself: it writes whatever CopiedLifetimes.of gives each family",
  }],
  ["lib/store/backend/postgres/atomic.ts|hex", {
    families: [],
    why: "a Map of the planned mutations of one commit, not a KV write",
  }],
  ["lib/store/auth/interaction_ids.ts|key", {
    families: ["discord_interactions"],
    why: "interactionIdKey is declared in interaction_ids.ts itself, not in keys.ts",
  }],
  ["lib/store/delivery/events.ts|dedup", {
    families: ["dedup"],
    why: "PreparedEvent.dedup, and the mark of a delivery answered without an event, are dedupKeys",
  }],
  ["lib/store/delivery/events.ts|nonceMark", {
    families: ["nonces"],
    why: "PreparedEvent.nonceMark is a nonceKey",
  }],
  ["lib/store/notify/notify_cache.ts|answer.key", {
    families: ["notify_repo_access", "notify_team_members"],
    why: "the key of a CachedAnswer: repoAccessAnswer and teamMembersAnswer",
  }],
  ["lib/store/delivery/message_refs.ts|keyOf(place)", {
    families: ["message_refs"],
    why: "keyOf is a local wrapper of messageRefKey",
  }],
  ["lib/store/delivery/message_refs.ts|keyOf(ref)", {
    families: ["message_refs"],
    why: "keyOf is a local wrapper of messageRefKey",
  }],
  ["lib/store/delivery/send_logs.ts|key", {
    families: [
      "send_logs_by_group",
      "send_logs_by_route",
      "send_logs_by_status",
      "send_logs_by_group_status",
      "send_logs_by_delivery",
    ],
    why: "the index keys of a send log (indexKeys)",
  }],
  ["lib/store/delivery/subject_messages.ts|key", {
    families: ["subject_messages"],
    why: "a parameter: the subject message key a legacy record moves to",
  }],
  ["lib/store/delivery/subject_messages.ts|keys.key", {
    families: ["subject_messages"],
    why: "keysOf(at).key is a subjectMessageKey",
  }],
]);

/** Key builder name → the family (first key part) of the keys it builds. */
function builderFamilies(keysSource: string): Map<string, string> {
  const bodies = new Map<string, string>();
  const declaration = /^export (?:const (\w+) =|function (\w+)\()/gm;
  const starts = [...keysSource.matchAll(declaration)];
  starts.forEach((match, index) => {
    const end = index + 1 < starts.length ? starts[index + 1].index : keysSource.length;
    bodies.set(match[1] ?? match[2], keysSource.slice(match.index, end));
  });
  const families = new Map<string, string>();
  const resolve = (name: string, seen: Set<string>): string | undefined => {
    const body = bodies.get(name);
    if (body === undefined || seen.has(name)) return undefined;
    const first = body.match(/\[\s*(?:"([^"]+)"|\.\.\.(\w+)\()/);
    if (!first) return undefined;
    return first[1] ?? resolve(first[2], new Set([...seen, name]));
  };
  for (const name of bodies.keys()) {
    const family = resolve(name, new Set());
    if (family !== undefined) families.set(name, family);
  }
  return families;
}

/** The end of the argument list opened just before `from` (balanced brackets, strings skipped). */
function closingParen(source: string, from: number): number {
  let depth = 1;
  for (let i = from; i < source.length; i++) {
    const char = source[i];
    if (char === '"' || char === "'" || char === "`") {
      i++;
      while (i < source.length && source[i] !== char) i += source[i] === "\\" ? 2 : 1;
    } else if (char === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (char === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i + 2) + 1;
    } else if ("([{".includes(char)) {
      depth++;
    } else if (")]}".includes(char) && --depth === 0) {
      return i;
    }
  }
  throw new Error(`unbalanced call at ${from}`);
}

/** The top-level arguments of an argument list's text. */
function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if ("([{".includes(text[i])) depth++;
    else if (")]}".includes(text[i])) depth--;
    else if (text[i] === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.replace(/\s+/g, " ").trim()).filter((part) => part !== "");
}

/** A `set(key, value, options)` call whose options carry `expireIn`. */
interface ExpiringWrite {
  file: string;
  line: number;
  key: string;
  /** The builder the key comes from, when the scan can tell. */
  builder?: string;
}

/**
 * The expiring writes of one file: `.set(…)` calls whose arguments mention `expireIn`, or
 * whose options are a constant of the file declared with `expireIn`.
 */
function expiringWrites(file: string, source: string): ExpiringWrite[] {
  const optionConstants = new Set(
    [...source.matchAll(/const (\w+) = [^;]*\bexpireIn\b/g)].map((match) => match[1]),
  );
  const writes: ExpiringWrite[] = [];
  for (const match of source.matchAll(/\.set\(/g)) {
    const open = match.index + match[0].length;
    const args = splitArguments(source.slice(open, closingParen(source, open)));
    const expiring = args.some((arg) => /\bexpireIn\b/.test(arg)) ||
      (args.length === 3 && optionConstants.has(args[2]));
    if (!expiring) continue;
    const key = args[0];
    const line = source.slice(0, match.index).split("\n").length;
    writes.push({ file, line, key, builder: builderOf(source, match.index, key) });
  }
  return writes;
}

/**
 * The builder a key argument comes from: a call `builder(…)`, or a variable whose nearest
 * declaration before the call is `const name = builder(…)`. Undefined when the nearest
 * declaration is anything else (a parameter, another value).
 */
function builderOf(source: string, at: number, key: string): string | undefined {
  const call = key.match(/^(\w+)\(/);
  if (call) return call[1];
  if (!/^\w+$/.test(key)) return undefined;
  const before = source.slice(0, at);
  const declarations = [
    ...before.matchAll(new RegExp(`(?:\\b(?:const|let) ${key} = (\\w+)?|\\b${key}\\??:)`, "g")),
  ];
  return declarations.at(-1)?.[1];
}

async function* libFiles(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(ROOT, folder))) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) yield* libFiles(path);
    else if (entry.isFile && /\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("store copy lifetimes: every family lib/ writes with expireIn gets a lifetime in a copy", async () => {
  const builders = builderFamilies(await Deno.readTextFile(join(ROOT, "lib/store/keys.ts")));
  assert.equal(builders.get("openIssueKey"), "open_issues");
  assert.equal(builders.get("rejectionKey"), "rejections");
  const missing: string[] = [];
  const unresolved: string[] = [];
  const usedByHand = new Set<string>();
  let found = 0;
  for await (const file of libFiles("lib")) {
    for (const write of expiringWrites(file, await Deno.readTextFile(join(ROOT, file)))) {
      found++;
      const where = `${write.file}:${write.line} set(${write.key}, …)`;
      const family = write.builder === undefined ? undefined : builders.get(write.builder);
      const byHand = BY_HAND.get(`${write.file}|${write.key}`);
      const families = family !== undefined ? [family] : byHand?.families;
      if (families === undefined) {
        unresolved.push(where);
        continue;
      }
      if (family === undefined) usedByHand.add(`${write.file}|${write.key}`);
      for (const name of families) {
        if (!familyExpires(name)) missing.push(`${name} (${where})`);
      }
    }
  }
  assert.ok(found > 40, `only ${found} expiring writes were found: the scan is broken`);
  assert.deepEqual(
    unresolved,
    [],
    `the scan cannot tell the family of these expiring writes: resolve them in BY_HAND\n${
      unresolved.join("\n")
    }`,
  );
  assert.deepEqual(
    missing,
    [],
    `written with expireIn but kept forever by a store copy: add them to FAMILY_LIFETIMES\n${
      missing.join("\n")
    }`,
  );
  const stale = [...BY_HAND.keys()].filter((entry) => !usedByHand.has(entry));
  assert.deepEqual(stale, [], "BY_HAND entries that match no write any more");
});

Deno.test("store copy lifetimes: the scan finds expiring writes in every shape lib/ uses", () => {
  const source = [
    "const builtKey = closedPullKey(a, b, 1);",
    "const expiry = keepUntil === null ? {} : { expireIn: keepUntil - now };",
    "op.set(replayKey(a, b), replay, { expireIn: REPLAY_KEEP_MS });",
    "op.set(",
    "  heldUnitKey(a, b, c),",
    "  { logId, lane, heldAt: now }, // held (for now)",
    "  {",
    "    expireIn: retentionMs,",
    "  },",
    ");",
    "kv.atomic().set(builtKey, { at: f(1) }, { expireIn }).commit();",
    "kv.atomic().set(tokenKey(id), record, expiry);",
    "function put(param: KvKey) { op.set(param, 1, { expireIn: 5 }); }",
    "op.set(sendLogKey(id), log);",
    "cache.set(name, value);",
  ].join("\n");
  assert.deepEqual(expiringWrites("x.ts", source).map(({ key, builder }) => ({ key, builder })), [
    { key: "replayKey(a, b)", builder: "replayKey" },
    { key: "heldUnitKey(a, b, c)", builder: "heldUnitKey" },
    { key: "builtKey", builder: "closedPullKey" },
    { key: "tokenKey(id)", builder: "tokenKey" },
    { key: "param", builder: undefined },
  ]);
});
