/**
 * Arguments of `deno task store:copy --from <store> --to <store> [--force]`: each store is a
 * Deno KV file path, a KV Connect URL or a PostgreSQL URL (the values KV_PATH and DATABASE_URL
 * take). Every check fails with a {@link StoreCopyUsageError} whose message never holds a
 * password: stores are shown by {@link describeStore}.
 */
import { isLoopbackName } from "../config.ts";

/** Where a store is. */
export type StoreLocation =
  | { kind: "postgres"; url: string }
  | { kind: "kv-connect"; url: string }
  | { kind: "kv-file"; path: string };

/** What the task was asked to do. */
export interface StoreCopyArgs {
  from: StoreLocation;
  to: StoreLocation;
  force: boolean;
}

/** Arguments that cannot be run; the message says which and why. */
export class StoreCopyUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreCopyUsageError";
  }
}

/** How to call the task. */
export const STORE_COPY_USAGE =
  "usage: deno task store:copy --from <KV file | postgres://…> --to <KV file | postgres://…> [--force]";

const MAX_ARGS = 8;
const MAX_ARG_LENGTH = 4096;
const POSTGRES = /^postgres(ql)?:\/\//i;
const ANY_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Whether text holds a control character (below U+0020, or DEL). */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Reads the arguments; throws {@link StoreCopyUsageError}. */
export function parseStoreCopyArgs(args: readonly string[]): StoreCopyArgs {
  if (args.length > MAX_ARGS) throw new StoreCopyUsageError(`too many arguments (${args.length})`);
  const values = new Map<"from" | "to", string>();
  let force = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.length > MAX_ARG_LENGTH) {
      throw new StoreCopyUsageError(`an argument is longer than ${MAX_ARG_LENGTH} characters`);
    }
    if (arg === "--force") {
      force = true;
      continue;
    }
    const option = /^--(from|to)(?:=(.*))?$/s.exec(arg);
    if (!option) throw new StoreCopyUsageError(`unknown argument ${printable(arg)}`);
    const name = option[1] as "from" | "to";
    if (values.has(name)) throw new StoreCopyUsageError(`--${name} is given twice`);
    const value = option[2] ?? args[++i];
    if (value === undefined || value === "") {
      throw new StoreCopyUsageError(`--${name} needs a KV file path or a postgres:// URL`);
    }
    values.set(name, value);
  }
  const from = values.get("from");
  const to = values.get("to");
  if (from === undefined) throw new StoreCopyUsageError("--from is missing");
  if (to === undefined) throw new StoreCopyUsageError("--to is missing");
  return { from: locationOf("from", from), to: locationOf("to", to), force };
}

function locationOf(name: string, value: string): StoreLocation {
  if (POSTGRES.test(value)) {
    const url = URL.parse(value);
    if (!url || url.hostname === "" || url.pathname.length <= 1) {
      throw new StoreCopyUsageError(
        `--${name} must be postgres://user:password@host:port/database`,
      );
    }
    return { kind: "postgres", url: value };
  }
  if (ANY_URL.test(value)) {
    const url = URL.parse(value);
    const ok = url !== null &&
      (url.protocol === "https:" || (url.protocol === "http:" && isLoopbackName(url.hostname)));
    if (!ok) {
      throw new StoreCopyUsageError(
        `--${name} must be a KV file path, a postgres:// URL or an https:// KV Connect URL`,
      );
    }
    return { kind: "kv-connect", url: value };
  }
  if (value === ":memory:") {
    throw new StoreCopyUsageError(`--${name} cannot be :memory: (it is gone when the task ends)`);
  }
  if (hasControl(value)) {
    throw new StoreCopyUsageError(`--${name} holds control characters`);
  }
  return { kind: "kv-file", path: value };
}

/** A store as it may be printed: a PostgreSQL or KV Connect URL without its password. */
export function describeStore(location: StoreLocation): string {
  if (location.kind === "kv-file") return location.path;
  const url = new URL(location.url);
  url.password = "";
  url.search = "";
  url.hash = "";
  return url.href;
}

/** Whether two locations name the same store (same file, or same server and database). */
export async function sameStore(a: StoreLocation, b: StoreLocation): Promise<boolean> {
  if (a.kind !== b.kind) return false;
  if (a.kind === "kv-file" && b.kind === "kv-file") {
    return await realPath(a.path) === await realPath(b.path);
  }
  const [x, y] = [new URL((a as { url: string }).url), new URL((b as { url: string }).url)];
  const place = (url: URL) =>
    `${url.hostname.toLowerCase()}:${url.port || (a.kind === "postgres" ? "5432" : "443")}` +
    decoded(url.pathname);
  return place(x) === place(y);
}

/** The absolute path of a file, symbolic links resolved when it exists. */
async function realPath(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return path.startsWith("/") ? path : `${Deno.cwd()}/${path.replace(/^\.\//, "")}`;
  }
}

/** Removes every password of the given stores from a message. */
export function withoutPasswords(message: string, locations: readonly StoreLocation[]): string {
  let text = message;
  for (const location of locations) {
    if (location.kind === "kv-file") continue;
    const password = URL.parse(location.url)?.password;
    if (!password) continue;
    for (const form of new Set([password, decoded(password)])) {
      text = text.split(form).join("***");
    }
  }
  return text;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An argument as it may be echoed: its option name only (a value may be a password). */
function printable(arg: string): string {
  const name = /^--[\w-]{1,40}/.exec(arg);
  return name ? JSON.stringify(name[0]) : "(a value not after --from or --to)";
}
