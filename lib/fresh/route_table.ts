/** Turning route file names into URL patterns, and ordering them. */

/** One routable file with its URL pattern (Hono syntax) and its rank. */
interface RouteEntry {
  file: string;
  pattern: string;
  /** 0 static, 1 dynamic, 2 catch-all: lower ranks are tried first. */
  rank: number;
}

const SPECIAL_FILE = /(^|\/)_(app|404|error|middleware)\.[jt]sx?$/;

/** Whether a file under `routes/` is a special file rather than a route. */
export function isSpecialFile(file: string): boolean {
  return SPECIAL_FILE.test(file);
}

const MIDDLEWARE_FILE = /(^|\/)_middleware\.[jt]sx?$/;

/** The folder (relative to `routes/`, "" for the root) a `_middleware` file applies to; null for other files. */
export function middlewareFolder(file: string): string | null {
  return MIDDLEWARE_FILE.test(file) ? file.replace(MIDDLEWARE_FILE, "") : null;
}

/**
 * The URL pattern of a route file: `a/b.ts` → `/a/b`, `a/index.tsx` → `/a`,
 * `[id].ts` → `/:id`, `[...rest].ts` → `/:rest{.+}`.
 */
export function patternOf(file: string): RouteEntry {
  const segments = file.replace(/\.[jt]sx?$/, "").split("/");
  if (segments.at(-1) === "index") segments.pop();
  let rank = 0;
  const parts = segments.map((segment) => {
    const catchAll = segment.match(/^\[\.\.\.(\w+)\]$/);
    if (catchAll) {
      rank = 2;
      return `:${catchAll[1]}{.+}`;
    }
    return segment.replace(/\[(\w+)\]/g, (_, name) => {
      rank = Math.max(rank, 1);
      return `:${name}`;
    });
  });
  return { file, pattern: "/" + parts.join("/"), rank };
}

/**
 * Orders routes so that static ones come before dynamic ones, and dynamic
 * before catch-all; within a rank, more segments first, then more static
 * segments, then by name, so the order never depends on the file system.
 */
export function sortRoutes(entries: RouteEntry[]): RouteEntry[] {
  const staticCount = (p: string) => p.split("/").filter((s) => s && !s.startsWith(":")).length;
  const depth = (p: string) => p.split("/").length;
  return [...entries].sort((a, b) =>
    a.rank - b.rank ||
    depth(b.pattern) - depth(a.pattern) ||
    staticCount(b.pattern) - staticCount(a.pattern) ||
    a.pattern.localeCompare(b.pattern)
  );
}

/** The folders (relative to `routes/`) whose `_middleware` applies to a route file, outermost first. */
export function foldersOf(file: string): string[] {
  const segments = file.split("/").slice(0, -1);
  return ["", ...segments.map((_, i) => segments.slice(0, i + 1).join("/"))];
}
